package dev.puddle.core.auth;

import com.nimbusds.jose.jwk.JWKSet;
import dev.puddle.core.api.Response;
import java.io.IOException;
import java.util.Map;
import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * {@code GET /.well-known/jwks.json}: the public keys of Puddle's own issuer as a JWKS document
 * (RFC 7517), read from the metastore, so that tools outside Puddle can verify its tokens.
 */
public final class JwksEndpoint {
  /** Verifiers may keep the document this long; a token with an unknown kid makes them reload. */
  private static final String CACHE_CONTROL = "public, max-age=300";

  private final KeySetSource published;

  public JwksEndpoint(KeySetSource published) {
    this.published = published;
  }

  public Response handle() {
    JWKSet keys;
    try {
      keys = published.load();
    } catch (IOException e) {
      throw new ServiceUnavailableException(
          "The published keys cannot be read: %s", e.getMessage());
    }
    return new Response(
        200,
        Map.of("content-type", JWKSet.MIME_TYPE, "cache-control", CACHE_CONTROL),
        keys.toString(true));
  }
}
