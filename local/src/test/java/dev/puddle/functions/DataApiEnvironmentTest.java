package dev.puddle.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.dataapi.DataApiConnections;
import dev.puddle.local.LocalDataApi;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** {@code PUDDLE_DB_MODE=data-api} and its settings make connections over the RDS Data API. */
class DataApiEnvironmentTest {
  private static final StaticCredentialsProvider CREDENTIALS =
      StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));

  private static final Map<String, String> SETTINGS =
      Map.of(
          "PUDDLE_DB_MODE", "data-api",
          "PUDDLE_DB_CLUSTER_ARN", "arn:aws:rds:eu-west-1:123456789012:cluster:puddle",
          "PUDDLE_DB_SECRET_ARN",
              "arn:aws:secretsmanager:eu-west-1:123456789012:secret:puddle-AbCdEf",
          "PUDDLE_DB_NAME", "postgres");

  private static EmbeddedPostgres postgres;
  private static LocalDataApi endpoint;

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
    endpoint = LocalDataApi.start(postgres.getJdbcUrl("postgres", "postgres"), "postgres");
  }

  @AfterAll
  static void stop() throws Exception {
    endpoint.close();
    postgres.close();
  }

  @Test
  void theModeSelectsTheDataApi() throws Exception {
    Database.ConnectionFactory factory = new Environment(SETTINGS).connections(null);
    assertThat(factory).isInstanceOf(DataApiConnections.class);
    ((DataApiConnections) factory).close();
  }

  @Test
  void connectionsReachTheClusterThroughTheDataApi() throws Exception {
    Map<String, String> env = new java.util.HashMap<>(SETTINGS);
    env.put("PUDDLE_DB_DATA_API_ENDPOINT", endpoint.uri().toString());
    long before = endpoint.totalCalls();
    try (DataApiConnections connections = DataApiEnvironment.connections(env, CREDENTIALS);
        Connection connection = connections.open()) {
      // a new SDK client's first call loads its classes: seconds on a busy machine
      assertThat(connection.isValid(30)).isTrue();
    }
    assertThat(endpoint.totalCalls()).isEqualTo(before + 1);
  }

  @Test
  void missingOrUnknownSettingsAreNamed() {
    assertThatThrownBy(
            () -> DataApiEnvironment.connections(Map.of("PUDDLE_DB_MODE", "data-api"), CREDENTIALS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("PUDDLE_DB_CLUSTER_ARN");
    assertThatThrownBy(() -> new Environment(Map.of("PUDDLE_DB_MODE", "odbc")).connections(null))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("jdbc or data-api");
  }
}
