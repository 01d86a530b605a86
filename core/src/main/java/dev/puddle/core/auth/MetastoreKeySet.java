package dev.puddle.core.auth;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import dev.puddle.core.metastore.SigningKeys;
import java.io.IOException;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The public keys of Puddle's own issuer, as the token function published them in the metastore.
 */
public final class MetastoreKeySet implements KeySetSource {
  private final SigningKeys published;

  public MetastoreKeySet(SigningKeys published) {
    this.published = published;
  }

  @Override
  public JWKSet load() throws IOException {
    List<JWK> keys = new ArrayList<>();
    for (var key : published.published().entrySet()) {
      try {
        keys.add(JWK.parse(key.getValue()).toPublicJWK());
      } catch (ParseException e) {
        throw new IOException("The published key " + key.getKey() + " does not parse", e);
      }
    }
    return new JWKSet(keys);
  }
}
