package dev.puddle.core.auth;

import java.net.URI;
import java.util.Set;

/**
 * One token issuer the catalog trusts: its exact {@code iss}, where its public keys are (a JWKS
 * URL; none for Puddle's own issuer, whose keys are read from the metastore), the audiences a token
 * must name one of, the claim naming the principal, and how a token is bound to a realm.
 *
 * <p>The realm is either fixed for the issuer ({@code realm}: every token of an external IdP serves
 * one tenant, the usual case) or carried by a claim of each token ({@code realmClaim}: an IdP that
 * serves several tenants, and Puddle's own tokens); exactly one of the two is set. A token whose
 * realm claim is missing is rejected.
 */
public record IssuerSettings(
    String issuer,
    URI jwksUri,
    Set<String> audiences,
    String principalClaim,
    String realm,
    String realmClaim) {
  /** The claim naming the principal unless an issuer says otherwise. */
  public static final String DEFAULT_PRINCIPAL_CLAIM = "sub";

  public IssuerSettings {
    if (issuer == null || issuer.isBlank()) {
      throw new IllegalArgumentException("An issuer needs its iss value");
    }
    audiences = Set.copyOf(audiences);
    if (audiences.isEmpty()) {
      throw new IllegalArgumentException("Issuer " + issuer + " needs at least one audience");
    }
    principalClaim =
        principalClaim == null || principalClaim.isBlank()
            ? DEFAULT_PRINCIPAL_CLAIM
            : principalClaim;
    if ((realm == null) == (realmClaim == null)) {
      throw new IllegalArgumentException(
          "Issuer " + issuer + " needs either a fixed realm or a realm claim, not both or neither");
    }
  }

  /** Whether a token's realm comes from a claim rather than from the issuer. */
  public boolean realmFromClaim() {
    return realmClaim != null;
  }
}
