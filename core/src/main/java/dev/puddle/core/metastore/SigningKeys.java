package dev.puddle.core.metastore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The public keys of Puddle's own token issuer, as published in the metastore: the key id and the
 * public JWK as JSON text. They are public, so reading them needs nothing but the metastore.
 */
public final class SigningKeys {
  private final Database database;

  public SigningKeys(Database database) {
    this.database = database;
  }

  /** The published keys by key id, oldest first. */
  public Map<String, String> published() {
    return database.read(
        connection -> {
          Map<String, String> keys = new LinkedHashMap<>();
          try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT kid, public_jwk FROM signing_key ORDER BY published_at, kid");
              ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
              keys.put(rs.getString(1), rs.getString(2));
            }
          }
          return keys;
        });
  }

  /**
   * Makes the published keys exactly {@code keys} (key id to public JWK): adds the new ones,
   * replaces one whose key id was reused for other key material, and withdraws those no longer in
   * the set, in one transaction. A key already published as it is keeps its row.
   */
  public void publish(Map<String, String> keys) {
    database.transaction(
        connection -> {
          try (PreparedStatement insert =
              connection.prepareStatement(
                  "INSERT INTO signing_key (kid, public_jwk) VALUES (?, ?)"
                      + " ON CONFLICT (kid) DO UPDATE SET public_jwk = EXCLUDED.public_jwk,"
                      + " published_at = now()"
                      + " WHERE signing_key.public_jwk <> EXCLUDED.public_jwk")) {
            for (Map.Entry<String, String> key : keys.entrySet()) {
              insert.setString(1, key.getKey());
              insert.setString(2, key.getValue());
              insert.executeUpdate();
            }
          }
          List<String> withdrawn = new ArrayList<>();
          try (PreparedStatement select =
                  connection.prepareStatement("SELECT kid FROM signing_key FOR UPDATE");
              ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
              if (!keys.containsKey(rs.getString(1))) {
                withdrawn.add(rs.getString(1));
              }
            }
          }
          try (PreparedStatement delete =
              connection.prepareStatement("DELETE FROM signing_key WHERE kid = ?")) {
            for (String kid : withdrawn) {
              delete.setString(1, kid);
              delete.executeUpdate();
            }
          }
          return null;
        });
  }
}
