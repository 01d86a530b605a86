package dev.puddle.core.metastore.access;

import dev.puddle.core.access.Principal;
import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.access.SecretHash;
import dev.puddle.core.auth.ClientCredentials;
import dev.puddle.core.events.CatalogEvents;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Json;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * The principals of each realm and their client credentials. A client id is unique across realms,
 * so it alone names its principal's realm; the secret is kept only as a slow salted hash, and
 * {@link #verify} cannot tell an unknown client id from a wrong secret, not even by its timing.
 */
public final class Principals implements ClientCredentials {
  /** The principal every realm is bootstrapped with. */
  public static final String ROOT = "root";

  private static final Pattern CLIENT_ID = Pattern.compile("[A-Za-z0-9._-]{1,128}");
  private static final int MIN_SECRET_LENGTH = 8;
  private static final int MAX_SECRET_LENGTH = 512;

  /**
   * Hashed against for unknown client ids, so they take as long as a wrong secret. Made on first
   * use, not at class initialization, which would add a hash to every cold start.
   */
  private static final class Decoy {
    private static final SecretHash HASH = SecretHash.of(SecretHash.randomHex(16));
  }

  private final Database database;
  private final Change change;

  /** The store for changes made outside any request (bootstrap, tests). */
  public Principals(Database database) {
    this(database, Change.NONE);
  }

  private Principals(Database database, Change change) {
    this.database = database;
    this.change = change;
  }

  /** This store, its changes made by {@code change}'s request, which their events name. */
  public Principals as(Change change) {
    return new Principals(database, change);
  }

  /** A new random credential: a 16-byte client id and a 32-byte secret, in hex. */
  public static PrincipalCredential newCredential() {
    return new PrincipalCredential(SecretHash.randomHex(8), SecretHash.randomHex(16));
  }

  /** Fails with 400 unless the credential can be stored: a simple client id, a long secret. */
  public static PrincipalCredential check(PrincipalCredential credential) {
    if (credential.clientId() == null || !CLIENT_ID.matcher(credential.clientId()).matches()) {
      throw new BadRequestException(
          "Invalid client id: use 1 to 128 letters, digits, '.', '_' and '-'");
    }
    String secret = credential.clientSecret();
    if (secret == null
        || secret.length() < MIN_SECRET_LENGTH
        || secret.length() > MAX_SECRET_LENGTH
        || secret.chars().anyMatch(Character::isISOControl)) {
      throw new BadRequestException(
          "Invalid client secret: use %d to %d printable characters",
          MIN_SECRET_LENGTH, MAX_SECRET_LENGTH);
    }
    return credential;
  }

  /**
   * Creates a principal with a new random credential and returns it, its secret included: the only
   * time the secret is shown. 409 if the realm has a principal of that name.
   */
  public PrincipalCredential create(String realm, String name, Map<String, String> properties) {
    PrincipalCredential credential = newCredential();
    create(realm, name, properties, credential);
    return credential;
  }

  /** Creates a principal with the given credential. */
  public void create(
      String realm, String name, Map<String, String> properties, PrincipalCredential credential) {
    EntityNames.check("principal", name);
    check(credential);
    SecretHash hash = SecretHash.of(credential.clientSecret());
    database.transaction(
        change,
        (connection, events) -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO principal (realm_id, name, client_id, secret_algorithm,"
                      + " secret_iterations, secret_salt, secret_hash, properties)"
                      + " VALUES (?, ?, ?, ?, ?, ?, ?, ?::jsonb)")) {
            statement.setString(1, realm);
            statement.setString(2, name);
            statement.setString(3, credential.clientId());
            bindHash(statement, 4, hash);
            statement.setString(8, Json.fromMap(properties));
            statement.executeUpdate();
          } catch (SQLException e) {
            if (EntityNames.duplicate(e)) {
              throw duplicate(e, name);
            }
            throw e;
          }
          events.add(
              CatalogEvents.management(realm, null, "create-principal", Map.of("principal", name)));
          return null;
        });
  }

  public Principal get(String realm, String name) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT name, client_id, properties::text FROM principal"
                      + " WHERE realm_id = ? AND name = ?")) {
            statement.setString(1, realm);
            statement.setString(2, name);
            try (ResultSet rs = statement.executeQuery()) {
              if (!rs.next()) {
                throw new NotFoundException("Principal does not exist: %s", name);
              }
              return principal(rs);
            }
          }
        });
  }

  /** The realm's principals, by name. */
  public List<Principal> list(String realm) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT name, client_id, properties::text FROM principal WHERE realm_id = ?"
                      + " ORDER BY name")) {
            statement.setString(1, realm);
            List<Principal> result = new ArrayList<>();
            try (ResultSet rs = statement.executeQuery()) {
              while (rs.next()) {
                result.add(principal(rs));
              }
            }
            return result;
          }
        });
  }

  /** Deletes a principal and its role assignments. The root principal cannot be deleted. */
  public void delete(String realm, String name) {
    if (name.equals(ROOT)) {
      throw new BadRequestException("Cannot delete the root principal");
    }
    database.transaction(
        change,
        (connection, events) -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "DELETE FROM principal WHERE realm_id = ? AND name = ?")) {
            statement.setString(1, realm);
            statement.setString(2, name);
            if (statement.executeUpdate() == 0) {
              throw new NotFoundException("Principal does not exist: %s", name);
            }
          }
          events.add(
              CatalogEvents.management(realm, null, "delete-principal", Map.of("principal", name)));
          return null;
        });
  }

  /** Gives the principal a new random secret under its client id; the old one stops working. */
  public PrincipalCredential rotate(String realm, String name) {
    String clientId = get(realm, name).clientId();
    PrincipalCredential credential =
        new PrincipalCredential(clientId, newCredential().clientSecret());
    setCredential(realm, name, credential);
    return credential;
  }

  /** Sets the principal's client id and secret; 409 if another principal has that client id. */
  public void setCredential(String realm, String name, PrincipalCredential credential) {
    check(credential);
    SecretHash hash = SecretHash.of(credential.clientSecret());
    database.transaction(
        change,
        (connection, events) -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE principal SET client_id = ?, secret_algorithm = ?, secret_iterations = ?,"
                      + " secret_salt = ?, secret_hash = ?, updated_at = now()"
                      + " WHERE realm_id = ? AND name = ?")) {
            statement.setString(1, credential.clientId());
            bindHash(statement, 2, hash);
            statement.setString(6, realm);
            statement.setString(7, name);
            if (statement.executeUpdate() == 0) {
              throw new NotFoundException("Principal does not exist: %s", name);
            }
          } catch (SQLException e) {
            if (EntityNames.duplicate(e)) {
              throw new AlreadyExistsException("Client id is taken: %s", credential.clientId());
            }
            throw e;
          }
          events.add(
              CatalogEvents.management(
                  realm, null, "rotate-credentials", Map.of("principal", name)));
          return null;
        });
  }

  @Override
  public Optional<PrincipalRef> verify(String clientId, String clientSecret) {
    if (clientId == null || clientSecret == null) {
      return Optional.empty();
    }
    Optional<Stored> stored = database.read(connection -> find(connection, clientId));
    if (stored.isEmpty()) {
      Decoy.HASH.matches(clientSecret);
      return Optional.empty();
    }
    return stored.get().hash().matches(clientSecret)
        ? Optional.of(stored.get().principal())
        : Optional.empty();
  }

  /** The principal of a client id with its secret's hash. */
  private record Stored(PrincipalRef principal, SecretHash hash) {}

  private static Optional<Stored> find(Connection connection, String clientId) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT realm_id, name, secret_algorithm, secret_iterations, secret_salt, secret_hash"
                + " FROM principal WHERE client_id = ?")) {
      statement.setString(1, clientId);
      try (ResultSet rs = statement.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new Stored(
                new PrincipalRef(rs.getString(1), rs.getString(2)),
                new SecretHash(rs.getString(3), rs.getInt(4), rs.getBytes(5), rs.getBytes(6))));
      }
    }
  }

  private static void bindHash(PreparedStatement statement, int first, SecretHash hash)
      throws SQLException {
    statement.setString(first, hash.algorithm());
    statement.setInt(first + 1, hash.iterations());
    statement.setBytes(first + 2, hash.salt());
    statement.setBytes(first + 3, hash.hash());
  }

  private static Principal principal(ResultSet rs) throws SQLException {
    return new Principal(rs.getString(1), rs.getString(2), Json.toMap(rs.getString(3)));
  }

  private static AlreadyExistsException duplicate(SQLException e, String name) {
    return e.getMessage() != null && e.getMessage().contains("client_id")
        ? new AlreadyExistsException("Client id is taken")
        : new AlreadyExistsException("Principal already exists: %s", name);
  }
}
