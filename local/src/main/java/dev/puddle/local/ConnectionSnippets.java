package dev.puddle.local;

import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.iceberg.IcebergBuild;
import org.apache.iceberg.rest.auth.OAuth2Properties;

/**
 * What a user pastes into Spark or PyIceberg to reach the twin: the twin's client properties and
 * root's credential, as a {@code spark-sql} command line and as a PyIceberg {@code load_catalog}
 * call.
 */
final class ConnectionSnippets {
  /** Where the secret goes when it is not shown. */
  static final String SECRET_PLACEHOLDER = "<secret>";

  private static final String CATALOG = "puddle";
  private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9_./:=,@%+-]*");

  private final Map<String, String> properties;
  private final String credential;

  /**
   * Snippets with {@code properties} and the credential of {@code clientId}; {@code secret} null
   * where it is not to be shown, which leaves a placeholder.
   */
  ConnectionSnippets(Map<String, String> properties, String clientId, String secret) {
    this.properties = properties;
    this.credential = clientId + ":" + (secret == null ? SECRET_PLACEHOLDER : secret);
  }

  /** A {@code spark-sql} command line with Iceberg's runtime at the version Puddle is built on. */
  String spark() {
    String version = IcebergBuild.version();
    StringBuilder text = new StringBuilder();
    text.append("spark-sql --packages org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:")
        .append(version)
        .append(",org.apache.iceberg:iceberg-aws-bundle:")
        .append(version);
    conf(
        text,
        "spark.sql.extensions",
        "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions");
    String catalog = "spark.sql.catalog." + CATALOG;
    conf(text, catalog, "org.apache.iceberg.spark.SparkCatalog");
    conf(text, catalog + ".type", "rest");
    properties.forEach((key, value) -> conf(text, catalog + "." + key, value));
    conf(text, catalog + "." + OAuth2Properties.CREDENTIAL, credential);
    return text.toString();
  }

  /** A PyIceberg {@code load_catalog} call. */
  String pyIceberg() {
    String entries =
        properties.entrySet().stream()
            .map(entry -> python(entry.getKey()) + ": " + python(entry.getValue()))
            .collect(Collectors.joining(",\n        ", "        ", ""));
    return "from pyiceberg.catalog import load_catalog\n"
        + "catalog = load_catalog(\n"
        + "    \""
        + CATALOG
        + "\",\n"
        + "    **{\n"
        + "        \"type\": \"rest\",\n"
        + entries
        + ",\n        "
        + python(OAuth2Properties.CREDENTIAL)
        + ": "
        + python(credential)
        + ",\n    },\n)";
  }

  private static void conf(StringBuilder text, String key, String value) {
    text.append(" \\\n  --conf ").append(shell(key + "=" + value));
  }

  private static String shell(String word) {
    return SHELL_SAFE.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'";
  }

  private static String python(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
