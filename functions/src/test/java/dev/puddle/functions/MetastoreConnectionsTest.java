package dev.puddle.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.dataapi.DataApiConnections;
import dev.puddle.core.metastore.dataapi.DataApiTestEndpoint;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** {@code PUDDLE_DB_MODE} and its settings pick how the metastore is reached. */
class MetastoreConnectionsTest {
  private static final StaticCredentialsProvider CREDENTIALS =
      StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));

  private static EmbeddedPostgres postgres;
  private static DataApiTestEndpoint endpoint;

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
    endpoint = DataApiTestEndpoint.start(postgres.getJdbcUrl("postgres", "postgres"), "postgres");
  }

  @AfterAll
  static void stop() throws Exception {
    endpoint.close();
    postgres.close();
  }

  @Test
  void jdbcIsTheDefault() throws Exception {
    Database.ConnectionFactory factory =
        MetastoreConnections.fromEnvironment(
            Map.of("PUDDLE_DB_URL", postgres.getJdbcUrl("postgres", "postgres")), CREDENTIALS);
    try (Connection connection = factory.open()) {
      assertThat(connection.isValid(2)).isTrue();
    }
  }

  @Test
  void dataApiModeReachesTheClusterThroughTheDataApi() throws Exception {
    long before = endpoint.totalCalls();
    Database.ConnectionFactory factory =
        MetastoreConnections.fromEnvironment(
            Map.of(
                "PUDDLE_DB_MODE", "data-api",
                "PUDDLE_DB_CLUSTER_ARN", "arn:aws:rds:eu-west-1:123456789012:cluster:puddle",
                "PUDDLE_DB_SECRET_ARN",
                    "arn:aws:secretsmanager:eu-west-1:123456789012:secret:puddle-AbCdEf",
                "PUDDLE_DB_NAME", "postgres",
                "PUDDLE_DB_DATA_API_ENDPOINT", endpoint.uri().toString()),
            CREDENTIALS);
    assertThat(factory).isInstanceOf(DataApiConnections.class);
    try (Connection connection = factory.open()) {
      assertThat(connection.isValid(2)).isTrue();
    } finally {
      ((DataApiConnections) factory).close();
    }
    assertThat(endpoint.totalCalls()).isEqualTo(before + 1);
  }

  @Test
  void missingOrUnknownSettingsAreNamed() {
    assertThatThrownBy(
            () ->
                MetastoreConnections.fromEnvironment(
                    Map.of("PUDDLE_DB_MODE", "data-api"), CREDENTIALS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("PUDDLE_DB_CLUSTER_ARN");
    assertThatThrownBy(
            () ->
                MetastoreConnections.fromEnvironment(Map.of("PUDDLE_DB_MODE", "odbc"), CREDENTIALS))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("jdbc or data-api");
  }
}
