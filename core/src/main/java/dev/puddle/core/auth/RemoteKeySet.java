package dev.puddle.core.auth;

import com.nimbusds.jose.jwk.JWKSet;
import java.io.IOException;
import java.net.URI;
import java.text.ParseException;
import java.time.Duration;

/** An issuer's JWKS document, fetched over HTTP(S). */
public final class RemoteKeySet implements KeySetSource {
  /** A JWKS document is a few kilobytes; anything much larger is not one. */
  private static final int SIZE_LIMIT = 256 * 1024;

  private final URI uri;
  private final int timeoutMillis;

  /** Fetches {@code uri}, each of connecting and reading bounded by {@code timeout}. */
  public RemoteKeySet(URI uri, Duration timeout) {
    this.uri = uri;
    this.timeoutMillis = Math.toIntExact(timeout.toMillis());
  }

  @Override
  public JWKSet load() throws IOException {
    try {
      return JWKSet.load(uri.toURL(), timeoutMillis, timeoutMillis, SIZE_LIMIT);
    } catch (ParseException e) {
      throw new IOException("The JWKS document at " + uri + " does not parse", e);
    }
  }

  @Override
  public String toString() {
    return uri.toString();
  }
}
