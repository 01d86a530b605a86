package dev.puddle.core.auth;

import java.time.Duration;

/** An issuer the catalog accepts tokens of, and where its public keys are loaded from. */
public record TrustedIssuer(IssuerSettings settings, KeySetSource keys) {
  /** How long fetching an issuer's JWKS document may take, connecting and reading each. */
  public static final Duration FETCH_TIMEOUT = Duration.ofSeconds(5);

  /** An external issuer whose keys are published at its JWKS URL. */
  public static TrustedIssuer remote(IssuerSettings settings) {
    if (settings.jwksUri() == null) {
      throw new IllegalArgumentException("Issuer " + settings.issuer() + " needs a JWKS URL");
    }
    return new TrustedIssuer(settings, new RemoteKeySet(settings.jwksUri(), FETCH_TIMEOUT));
  }
}
