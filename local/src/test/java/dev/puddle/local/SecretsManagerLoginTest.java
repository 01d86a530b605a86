package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.puddle.core.aws.SecretsManagerCredentials;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.PostgresConnections;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The metastore login from Secrets Manager, through the real SDK client talking to a loopback
 * endpoint that speaks Secrets Manager's JSON protocol: fetched once and cached, fetched again when
 * PostgreSQL refuses it, so that an alternating-users rotation (the secret moves from one user to
 * the other, the old one stops logging in) needs no redeploy.
 */
class SecretsManagerLoginTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SECRET_ARN =
      "arn:aws:secretsmanager:us-east-1:000000000000:secret:puddle-db-AbCdEf";

  private final AtomicInteger fetches = new AtomicInteger();
  private final AtomicReference<String> user = new AtomicReference<>();
  private HttpServer secretsManager;

  @BeforeEach
  void setUp() throws IOException {
    for (String role : new String[] {"puddle_blue", "puddle_green"}) {
      admin(
          "DO $$ BEGIN CREATE ROLE "
              + role
              + " LOGIN; EXCEPTION WHEN duplicate_object THEN"
              + " ALTER ROLE "
              + role
              + " LOGIN; END $$");
    }
    secretsManager =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
    secretsManager.createContext(
        "/",
        exchange -> {
          String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
          byte[] body;
          if ("secretsmanager.GetSecretValue".equals(target)) {
            fetches.incrementAndGet();
            String secret =
                JSON.writeValueAsString(Map.of("username", user.get(), "password", "unused"));
            body =
                JSON.writeValueAsBytes(
                    Map.of(
                        "ARN",
                        SECRET_ARN,
                        "Name",
                        "puddle-db",
                        "SecretString",
                        secret,
                        "VersionId",
                        "v" + fetches.get()));
            exchange.sendResponseHeaders(200, body.length);
          } else {
            body = "{\"__type\":\"InvalidRequestException\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(400, body.length);
          }
          exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    secretsManager.start();
  }

  @AfterEach
  void tearDown() {
    secretsManager.stop(0);
  }

  @Test
  void theLoginIsCachedAndFetchedAgainWhenTheDatabaseRefusesIt() {
    SecretsManagerCredentials credentials =
        new SecretsManagerCredentials(
            SECRET_ARN,
            () ->
                SecretsManagerClient.builder()
                    .endpointOverride(
                        URI.create("http://127.0.0.1:" + secretsManager.getAddress().getPort()))
                    .region(Region.US_EAST_1)
                    .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("k", "s")))
                    .httpClient(UrlConnectionHttpClient.create())
                    .build());
    user.set("puddle_blue");
    // the twin's URL names its own user, which would win over the secret's
    String url = TestTwin.get().jdbcUrl().replaceFirst("\\?.*$", "");
    try (Database database = new Database(PostgresConnections.factory(url, credentials), 1)) {
      assertThat(currentUser(database)).isEqualTo("puddle_blue");
      database.closeIdleConnections();
      assertThat(currentUser(database)).isEqualTo("puddle_blue");
      assertThat(fetches).as("the second connection used the cached login").hasValue(1);

      // rotation: the secret now names the other user, and the old one may no longer log in
      user.set("puddle_green");
      admin("ALTER ROLE puddle_blue NOLOGIN");
      database.closeIdleConnections();

      assertThat(currentUser(database)).isEqualTo("puddle_green");
      assertThat(fetches).hasValue(2);

      // a SnapStart restore forgets the login and the client that fetched it
      credentials.forget();
      database.closeIdleConnections();
      assertThat(currentUser(database)).isEqualTo("puddle_green");
      assertThat(fetches).hasValue(3);
    }
  }

  private static String currentUser(Database database) {
    return database.read(
        connection -> {
          try (Statement statement = connection.createStatement();
              ResultSet rs = statement.executeQuery("SELECT current_user")) {
            rs.next();
            return rs.getString(1);
          }
        });
  }

  private static void admin(String sql) {
    TestTwin.get()
        .database()
        .autocommit(
            connection -> {
              try (Statement statement = connection.createStatement()) {
                statement.execute(sql);
              }
              return null;
            });
  }
}
