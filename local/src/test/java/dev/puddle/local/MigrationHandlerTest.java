package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.puddle.core.auth.ClientCredentials.PrincipalRef;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.core.metastore.access.Principals;
import dev.puddle.functions.MigrationHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The migration function behind the CloudFormation custom resource: the sample event from {@code
 * events/custom-resource/} goes through the real handler against a new database of the twin's
 * PostgreSQL, and the answer CloudFormation gets is PUT to a loopback response URL.
 */
class MigrationHandlerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path SAMPLE =
      Path.of(System.getProperty("puddle.events.dir", "../events"))
          .resolve("custom-resource/migrate-create.json");

  private final List<JsonNode> answers = new CopyOnWriteArrayList<>();
  private final List<String> contentTypes = new CopyOnWriteArrayList<>();
  private HttpServer cloudFormation;

  @BeforeEach
  void setUp() throws IOException {
    cloudFormation =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
    cloudFormation.createContext(
        "/",
        exchange -> {
          contentTypes.add(String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type")));
          answers.add(JSON.readTree(exchange.getRequestBody().readAllBytes()));
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    cloudFormation.start();
  }

  @AfterEach
  void tearDown() {
    cloudFormation.stop(0);
  }

  @Test
  void createMigratesUpdateFindsNothingToDoAndDeleteKeepsTheSchema()
      throws IOException, SQLException {
    String database = newDatabase();
    MigrationHandler handler = new MigrationHandler(environment(database));

    JsonNode created = invoke(handler, "Create");
    JsonNode updated = invoke(handler, "Update");
    JsonNode deleted = invoke(handler, "Delete");

    assertThat(created.get("Status").asText()).isEqualTo("SUCCESS");
    // every script, V1 to V12 and V15 to V20
    assertThat(created.at("/Data/AppliedScripts").asText()).isEqualTo("18");
    assertThat(created.get("PhysicalResourceId").asText()).isEqualTo("puddle-metastore-schema");
    assertThat(created.get("RequestId").asText()).isEqualTo("6f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0");
    assertThat(updated.get("Status").asText()).isEqualTo("SUCCESS");
    assertThat(updated.at("/Data/AppliedScripts").asText()).isEqualTo("0");
    // the realm is bootstrapped once: the same root on every run
    assertThat(created.at("/Data/RootClientId").asText()).isNotBlank();
    assertThat(updated.at("/Data/RootClientId")).isEqualTo(created.at("/Data/RootClientId"));
    assertThat(deleted.get("Status").asText()).isEqualTo("SUCCESS");
    assertThat(answers).hasSize(3);
    assertThat(contentTypes).containsOnly("");
    try (Connection connection = DriverManager.getConnection(database, "postgres", null);
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT to_regclass('catalog_object') IS NOT NULL")) {
      rs.next();
      assertThat(rs.getBoolean(1)).as("the schema survives Delete").isTrue();
    }
  }

  @Test
  void aNewDeploymentGetsItsDefaultWarehouseOnceAndKeepsIt() throws IOException, SQLException {
    String database = newDatabase();
    Map<String, String> environment =
        Map.of(
            "PUDDLE_FUNCTION_GROUP", "migrate",
            "PUDDLE_DB_URL", database,
            "PUDDLE_REALM", "acme",
            "PUDDLE_DEFAULT_WAREHOUSE", "lake",
            "PUDDLE_DEFAULT_WAREHOUSE_LOCATION", "s3://acme-warehouse");

    JsonNode created = invoke(new MigrationHandler(environment), "Create");
    JsonNode moved =
        invoke(
            new MigrationHandler(
                Map.of(
                    "PUDDLE_FUNCTION_GROUP", "migrate",
                    "PUDDLE_DB_URL", database,
                    "PUDDLE_REALM", "acme",
                    "PUDDLE_DEFAULT_WAREHOUSE", "lake",
                    "PUDDLE_DEFAULT_WAREHOUSE_LOCATION", "s3://another-bucket")),
            "Update");

    assertThat(created.get("Status").asText()).isEqualTo("SUCCESS");
    assertThat(moved.get("Status").asText()).isEqualTo("SUCCESS");
    try (Connection connection = DriverManager.getConnection(database, "postgres", null);
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT realm_id, name, location FROM warehouse")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("acme");
      assertThat(rs.getString(2)).isEqualTo("lake");
      assertThat(rs.getString(3))
          .as("a warehouse's location never changes")
          .startsWith("s3://acme-warehouse");
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void rootGetsTheCredentialOfItsSecretAndANewValueRotatesIt() throws IOException {
    String database = newDatabase();
    String first = "Hq7cVw2LmZx9Rt4KpYs8Nf3JdBg6Ue1AoCi5XeWq";
    String second = "Pz4Fk8Rm2Tw6Yb9Nc3Vx7Jh1Ld5Qs0Gu8Ae2Mo6Ki";
    try (SecretsManagerEndpoint secret =
            new SecretsManagerEndpoint(
                "arn:aws:secretsmanager:us-east-1:123456789012:secret:puddle-root-AbCdEf");
        SdkCredentials credentials = SdkCredentials.set()) {
      Map<String, String> environment =
          Map.of(
              "PUDDLE_FUNCTION_GROUP",
              "migrate",
              "PUDDLE_DB_URL",
              database,
              "PUDDLE_ROOT_CREDENTIAL_SECRET_ARN",
              secret.arn(),
              "PUDDLE_SECRETS_MANAGER_ENDPOINT",
              secret.endpoint().toString());
      secret.secret("{\"clientId\":\"root\",\"clientSecret\":\"" + first + "\"}");

      JsonNode created = invoke(new MigrationHandler(environment), "Create");
      secret.secret("{\"clientId\":\"root\",\"clientSecret\":\"" + second + "\"}");
      JsonNode rotated = invoke(new MigrationHandler(environment), "Update");

      assertThat(created.get("Status").asText()).isEqualTo("SUCCESS");
      assertThat(created.at("/Data/RootClientId").asText()).isEqualTo("root");
      assertThat(rotated.get("Status").asText()).isEqualTo("SUCCESS");
      assertThat(secret.fetches()).isEqualTo(2);
      try (Database metastore =
          new Database(PostgresConnections.factory(database, null, null), 1)) {
        Principals principals = new Principals(metastore);
        assertThat(principals.verify("root", first)).as("the first value, rotated away").isEmpty();
        assertThat(principals.verify("root", second))
            .contains(new PrincipalRef(LocalTwin.REALM, Principals.ROOT));
      }
      assertThat(answers.toString()).doesNotContain(first).doesNotContain(second);
    }
  }

  @Test
  void aSecretThatHoldsNoCredentialFailsTheDeploymentWithoutQuotingIt() throws IOException {
    String database = newDatabase();
    try (SecretsManagerEndpoint secret =
            new SecretsManagerEndpoint(
                "arn:aws:secretsmanager:us-east-1:123456789012:secret:puddle-root-AbCdEf");
        SdkCredentials credentials = SdkCredentials.set()) {
      secret.secret("{\"clientId\":\"root\",\"password\":\"Hq7cVw2LmZx9Rt4Kp\"");

      JsonNode answer =
          invoke(
              new MigrationHandler(
                  Map.of(
                      "PUDDLE_FUNCTION_GROUP",
                      "migrate",
                      "PUDDLE_DB_URL",
                      database,
                      "PUDDLE_ROOT_CREDENTIAL_SECRET_ARN",
                      secret.arn(),
                      "PUDDLE_SECRETS_MANAGER_ENDPOINT",
                      secret.endpoint().toString())),
              "Create");

      assertThat(answer.get("Status").asText()).isEqualTo("FAILED");
      assertThat(answer.get("Reason").asText())
          .contains(secret.arn())
          .contains("clientSecret")
          .doesNotContain("Hq7cVw2LmZx9Rt4Kp");
    }
  }

  @Test
  void aSchemaNewerThanTheFunctionsScriptsFailsTheDeploymentAndIsLeftAsItIs()
      throws IOException, SQLException {
    String database = newDatabase();
    invoke(new MigrationHandler(environment(database)), "Create");
    try (Connection connection = DriverManager.getConnection(database, "postgres", null);
        Statement statement = connection.createStatement()) {
      statement.execute(
          "INSERT INTO schema_migration (version, script) VALUES (999, 'V999__newer.sql')");
    }

    // a rollback to an older release: its migration function runs against the newer schema
    JsonNode rolledBack = invoke(new MigrationHandler(environment(database)), "Update");

    assertThat(rolledBack.get("Status").asText()).isEqualTo("FAILED");
    assertThat(rolledBack.get("Reason").asText())
        .contains("schema is at version 999")
        .contains("the newest this release knows");
    try (Connection connection = DriverManager.getConnection(database, "postgres", null);
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT max(version) FROM schema_migration")) {
      rs.next();
      assertThat(rs.getInt(1)).as("nothing migrated down").isEqualTo(999);
    }
  }

  @Test
  void aFailureIsReportedToCloudFormationRatherThanLeftHanging() throws IOException {
    String missing = TestTwin.get().jdbcUrl().replaceFirst("/postgres\\?", "/no_such_database?");
    MigrationHandler handler = new MigrationHandler(environment(missing));

    JsonNode answer = invoke(handler, "Create");

    assertThat(answer.get("Status").asText()).isEqualTo("FAILED");
    assertThat(answer.get("Reason").asText()).contains("ServiceUnavailableException");
    assertThat(answers).hasSize(1);
  }

  private JsonNode invoke(MigrationHandler handler, String requestType) throws IOException {
    ObjectNode event = (ObjectNode) JSON.readTree(SAMPLE.toFile());
    event.put("RequestType", requestType);
    event.put(
        "ResponseURL",
        "http://127.0.0.1:"
            + cloudFormation.getAddress().getPort()
            + "/cfn-response?X-Amz-Signature=abc");
    if (!requestType.equals("Create")) {
      event.put("PhysicalResourceId", "puddle-metastore-schema");
    }
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    handler.handleRequest(
        new ByteArrayInputStream(JSON.writeValueAsBytes(event)), output, new LocalContext("cfn"));
    JsonNode returned = JSON.readTree(output.toByteArray());
    assertThat(returned).isEqualTo(answers.getLast());
    return returned;
  }

  private static Map<String, String> environment(String jdbcUrl) {
    return Map.of("PUDDLE_FUNCTION_GROUP", "migrate", "PUDDLE_DB_URL", jdbcUrl);
  }

  /**
   * Credentials for the SDK's default provider chain, which the functions' Secrets Manager client
   * uses (Lambda gives it the function's role), as its system properties; removed on close.
   */
  private record SdkCredentials(String accessKeyId, String secretAccessKey)
      implements AutoCloseable {
    static SdkCredentials set() {
      SdkCredentials before =
          new SdkCredentials(
              System.getProperty("aws.accessKeyId"), System.getProperty("aws.secretAccessKey"));
      System.setProperty("aws.accessKeyId", "test");
      System.setProperty("aws.secretAccessKey", "test");
      return before;
    }

    @Override
    public void close() {
      restore("aws.accessKeyId", accessKeyId);
      restore("aws.secretAccessKey", secretAccessKey);
    }

    private static void restore(String name, String value) {
      if (value == null) {
        System.clearProperty(name);
      } else {
        System.setProperty(name, value);
      }
    }
  }

  /** A new, empty database in the twin's PostgreSQL. */
  private static String newDatabase() {
    String name = "migrate_" + System.nanoTime();
    TestTwin.get()
        .database()
        .autocommit(
            connection -> {
              try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + name);
              }
              return null;
            });
    return TestTwin.get().jdbcUrl().replaceFirst("/postgres\\?", "/" + name + "?");
  }
}
