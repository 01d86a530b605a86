package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.auth.JwtAuthenticator;
import dev.puddle.core.auth.MetastoreKeySet;
import dev.puddle.core.auth.TokenIssuer;
import dev.puddle.core.auth.TrustedIssuer;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Migrations;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.core.metastore.SigningKeys;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.metastore.access.RealmBootstrap;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.functions.CatalogHandler;
import dev.puddle.functions.CatalogWiring;
import dev.puddle.functions.RequestLog;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.sql.Statement;
import java.time.Clock;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A release started against a schema newer than its scripts (a rollback of the functions after a
 * migration) refuses to serve: every request that needs the metastore is answered 503 naming both
 * versions, nothing is read or changed, and the function keeps running, so once the schema is one
 * it knows (here: the newer release's row removed, as if the newer release were deployed again and
 * this one replaced) it serves. In both metastore modes, as the check runs on the metastore's first
 * connection, whatever carries it.
 */
class NewerSchemaTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  enum Mode {
    JDBC,
    DATA_API
  }

  @ParameterizedTest
  @EnumSource(Mode.class)
  void aReleaseRefusesASchemaNewerThanItKnowsWith503AndServesOnceItKnowsIt(Mode mode)
      throws Exception {
    String jdbcUrl = newDatabase();
    int newer = Migrations.newest() + 1;
    try (Database admin = new Database(PostgresConnections.factory(jdbcUrl, null, null), 1)) {
      Migrations.migrate(admin);
      new RealmBootstrap(admin).bootstrap(LocalTwin.REALM, TestTwin.ROOT);
      new Warehouses(admin)
          .ensure(LocalTwin.REALM, "lake", "s3://warehouse/newer-schema", Map.of());
      run(
          admin,
          "INSERT INTO schema_migration (version, script) VALUES ("
              + newer
              + ", 'V"
              + newer
              + "__from_a_newer_release.sql')");
      String dump = MetastoreDump.of(admin).take();

      LocalDataApi dataApi = mode == Mode.DATA_API ? LocalDataApi.start(jdbcUrl, "postgres") : null;
      CatalogHandler handler =
          CatalogHandler.primed(
              CatalogWiring.Parts.allGroups(
                  new CatalogApi.Settings(LocalTwin.REALM, "lake"),
                  dataApi != null
                      ? dataApi.connections()
                      : PostgresConnections.factory(jdbcUrl, null, null),
                  1,
                  TestTwin.get().storage(),
                  NewerSchemaTest::ownTokens,
                  database -> null,
                  null,
                  null,
                  null,
                  null,
                  null,
                  RequestLog.text(
                      new PrintStream(OutputStream.nullOutputStream()), ZoneId.of("UTC"))));
      try (TestEndpoint endpoint = TestEndpoint.start(handler)) {
        HttpResponse<String> refused = ready(endpoint);
        HttpResponse<String> refusedAgain = ready(endpoint);

        assertThat(refused.statusCode()).isEqualTo(503);
        JsonNode error = JSON.readTree(refused.body()).get("error");
        assertThat(error.get("type").asText()).isEqualTo("ServiceUnavailableException");
        assertThat(error.get("code").asInt()).isEqualTo(503);
        assertThat(error.get("message").asText())
            .contains("schema is at version " + newer)
            .contains("newer than version " + Migrations.newest() + ", the newest this release");
        assertThat(refusedAgain.statusCode()).as("refused again, not crashed").isEqualTo(503);
        assertThat(MetastoreDump.of(admin).take()).as("nothing changed").isEqualTo(dump);

        run(admin, "DELETE FROM schema_migration WHERE version = " + newer);
        assertThat(ready(endpoint).statusCode()).isEqualTo(200);
      } finally {
        handler.close();
        if (dataApi != null) {
          dataApi.close();
        }
      }
    }
  }

  /** Tokens of an issuer whose keys the metastore publishes, as the twin's. */
  private static JwtAuthenticator ownTokens(Database database) {
    return new JwtAuthenticator(
        List.of(
            new TrustedIssuer(
                new TokenIssuer.Settings(
                        TokenIssuer.Settings.DEFAULT_ISSUER,
                        TokenIssuer.Settings.DEFAULT_AUDIENCE,
                        TokenIssuer.Settings.DEFAULT_LIFETIME)
                    .verification(),
                new MetastoreKeySet(new SigningKeys(database)))),
        JwtAuthenticator.DEFAULT_CLOCK_SKEW,
        Clock.systemUTC());
  }

  /**
   * The readiness probe: it needs no token and reads the metastore, as every catalog request but
   * the liveness probe does, through the same connections and their check.
   */
  private static HttpResponse<String> ready(TestEndpoint endpoint) {
    return TwinHttp.at(endpoint.uri()).get("/readyz");
  }

  private static void run(Database database, String sql) {
    database.autocommit(
        connection -> {
          try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
          }
          return null;
        });
  }

  /** A new, empty database in the JDBC twin's PostgreSQL. */
  private static String newDatabase() {
    String name = "newer_schema_" + System.nanoTime();
    run(TestTwin.get().database(), "CREATE DATABASE " + name);
    return TestTwin.get().jdbcUrl().replaceFirst("/postgres\\?", "/" + name + "?");
  }
}
