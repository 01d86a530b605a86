package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.IcebergBuild;
import org.junit.jupiter.api.Test;

/**
 * The banner's snippets carry the twin's own properties and root's client id, the secret only when
 * it is given (else a placeholder the shell does not take for a redirection).
 */
class ConnectionSnippetsTest {
  private static final Map<String, String> PROPERTIES = new LinkedHashMap<>();

  static {
    PROPERTIES.put("uri", "http://127.0.0.1:41234");
    PROPERTIES.put("warehouse", "default");
    PROPERTIES.put("scope", "PRINCIPAL_ROLE:ALL");
  }

  @Test
  void sparkGetsEveryPropertyAndTheCredential() {
    String spark = new ConnectionSnippets(PROPERTIES, "root", "s3cret").spark();

    assertThat(spark)
        .startsWith(
            "spark-sql --packages org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:"
                + IcebergBuild.version())
        .contains("--conf spark.sql.catalog.puddle=org.apache.iceberg.spark.SparkCatalog \\\n")
        .contains("--conf spark.sql.catalog.puddle.type=rest \\\n")
        .contains("--conf spark.sql.catalog.puddle.uri=http://127.0.0.1:41234 \\\n")
        .contains("--conf spark.sql.catalog.puddle.warehouse=default \\\n")
        .contains("--conf spark.sql.catalog.puddle.scope=PRINCIPAL_ROLE:ALL \\\n")
        .endsWith("--conf spark.sql.catalog.puddle.credential=root:s3cret");
  }

  @Test
  void pyIcebergGetsEveryPropertyAndTheCredential() {
    String python = new ConnectionSnippets(PROPERTIES, "root", "s3cret").pyIceberg();

    assertThat(python)
        .startsWith("from pyiceberg.catalog import load_catalog\ncatalog = load_catalog(\n")
        .contains("\"type\": \"rest\",\n")
        .contains("\"uri\": \"http://127.0.0.1:41234\",\n")
        .contains("\"warehouse\": \"default\",\n")
        .contains("\"scope\": \"PRINCIPAL_ROLE:ALL\",\n")
        .contains("\"credential\": \"root:s3cret\",\n");
  }

  @Test
  void aSecretNotShownIsAPlaceholder() {
    ConnectionSnippets snippets = new ConnectionSnippets(PROPERTIES, "root", null);

    assertThat(snippets.spark())
        .endsWith("--conf 'spark.sql.catalog.puddle.credential=root:<secret>'");
    assertThat(snippets.pyIceberg()).contains("\"credential\": \"root:<secret>\",\n");
  }
}
