package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.auth.OAuth2Properties;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar puddle-local.jar --metastore data-api}, as a user starts it: the banner names
 * the mode and the Data API stand-in's address, the catalog serves Iceberg's client (a token, a
 * namespace, a table created and loaded), and every connection its PostgreSQL has is the
 * stand-in's, none the catalog's own JDBC pool's.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DataApiModeIT {
  private static final String ROOT = "root:data-api-mode-secret-not-for-production";

  @TempDir Path data;

  @Test
  void theTwinServesItsCatalogThroughTheDataApi() throws Exception {
    int postgresPort = freePort();
    try (TwinProcess twin =
        TwinProcess.java(
            data,
            ROOT,
            List.of("--metastore", "data-api", "--pg-port", String.valueOf(postgresPort)))) {
      Map<String, String> properties = twin.awaitRunning(Duration.ofSeconds(120));
      assertThat(twin.awaitLine(line -> line.startsWith("Metastore: "), Duration.ofSeconds(10)))
          .matches("Metastore: data-api, .* at http://127\\.0\\.0\\.1:\\d+");

      TableIdentifier table = TableIdentifier.of(Namespace.of("sales"), "orders");
      try (RESTCatalog catalog =
          TestTwin.client(
              properties.get("uri"),
              properties.get("warehouse"),
              Map.of(
                  OAuth2Properties.CREDENTIAL,
                  ROOT,
                  OAuth2Properties.SCOPE,
                  "PRINCIPAL_ROLE:ALL"))) {
        catalog.createNamespace(table.namespace());
        catalog.createTable(
            table, new Schema(Types.NestedField.required(1, "id", Types.LongType.get())));
        assertThat(catalog.loadTable(table).schema().findField("id")).isNotNull();
        assertThat(catalog.listTables(table.namespace())).containsExactly(table);
      }

      assertThat(applicationsConnectedTo(postgresPort)).contains("puddle-local-data-api");
      assertThat(applicationsConnectedTo(postgresPort)).doesNotContain("puddle");
    }
  }

  /** The application names of the clients connected to the twin's PostgreSQL, but this one. */
  private static List<String> applicationsConnectedTo(int port) throws Exception {
    List<String> names = new ArrayList<>();
    try (Connection connection =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:"
                    + port
                    + "/postgres?user=postgres"
                    + "&ApplicationName=data-api-mode-it");
        Statement statement = connection.createStatement();
        ResultSet rs =
            statement.executeQuery(
                "SELECT application_name FROM pg_stat_activity"
                    + " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")) {
      while (rs.next()) {
        names.add(rs.getString(1));
      }
    }
    return names;
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
