package dev.puddle.engines.trino;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.engines.twin.PuddleTwin;
import io.trino.plugin.iceberg.IcebergConnector;
import io.trino.plugin.iceberg.IcebergQueryRunner;
import io.trino.plugin.iceberg.SchemaInitializer;
import io.trino.plugin.iceberg.catalog.TrinoCatalogFactory;
import io.trino.spi.connector.SchemaTableName;
import io.trino.testing.AbstractTestQueryFramework;
import io.trino.testing.QueryRunner;
import java.net.URI;
import java.util.Map;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Trino with {@code iceberg.rest-catalog.vended-credentials-enabled=true} and no S3 keys in its
 * catalog properties reads and writes through the credentials Puddle vends with each table, and
 * those credentials reach that table's files only.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestPuddleVendedCredentials extends AbstractTestQueryFramework {
  private static final String WAREHOUSE = "trino_vended";

  private PuddleTwin twin;

  @Override
  protected QueryRunner createQueryRunner() throws Exception {
    twin = PuddleTwin.shared();
    Management.signIn(twin, twin.rootCredential()).createWarehouse(WAREHOUSE);
    Map<String, String> properties =
        PuddleCatalog.withVendedCredentials(twin, WAREHOUSE, twin.rootCredential());
    assertThat(properties.keySet()).noneMatch(key -> key.startsWith("s3.aws-"));
    return IcebergQueryRunner.builder()
        .setIcebergProperties(properties)
        .addIcebergProperty("fs.hadoop.enabled", "false")
        .setSchemaInitializer(
            SchemaInitializer.builder()
                .withSchemaName("tpch")
                .withSchemaProperties(
                    Map.of("location", "'s3://warehouse/" + WAREHOUSE + "/tpch'"))
                .build())
        .build();
  }

  @Test
  void trinoReadsAndWritesWithVendedCredentials() {
    String few = "SELECT * FROM tpch.tiny.orders WHERE orderkey < 100";
    long all = (long) computeScalar("SELECT count(*) FROM tpch.tiny.orders");
    long added = (long) computeScalar("SELECT count(*) FROM (" + few + ")");
    assertUpdate("CREATE TABLE orders AS SELECT * FROM tpch.tiny.orders", all);
    assertUpdate("INSERT INTO orders " + few, added);
    assertThat(query("SELECT * FROM orders"))
        .skippingTypesCheck() // Iceberg has no varchar(n)
        .matches("SELECT * FROM tpch.tiny.orders UNION ALL " + few);
    assertUpdate("DELETE FROM orders WHERE orderkey < 100", 2 * added);
    assertThat(query("SELECT * FROM orders"))
        .skippingTypesCheck() // Iceberg has no varchar(n)
        .matches("SELECT * FROM tpch.tiny.orders WHERE orderkey >= 100");
  }

  @Test
  void aTablesCredentialsReachNoOtherTable() {
    assertUpdate("CREATE TABLE mine AS SELECT * FROM tpch.tiny.nation", 25);
    assertUpdate("CREATE TABLE theirs AS SELECT * FROM tpch.tiny.region", 5);
    Table mine = trinoTable("mine");
    Table theirs = trinoTable("theirs");
    Map<String, String> vended = mine.io().properties();
    assertThat(vended.get("s3.access-key-id"))
        .as("a vended key, not the twin's own")
        .isNotNull()
        .isNotEqualTo(twin.s3AccessKeyId());
    assertThat(vended).containsKey("s3.session-token");

    try (S3Client s3 = s3With(vended)) {
      // the control: the same credentials read the table they were vended for
      assertThat(read(s3, metadataFile(mine))).isPositive();
      assertThatThrownBy(() -> read(s3, metadataFile(theirs)))
          .isInstanceOf(S3Exception.class)
          .satisfies(e -> assertThat(((S3Exception) e).statusCode()).isEqualTo(403));
    }
  }

  private static String metadataFile(Table table) {
    return ((BaseTable) table).operations().current().metadataFileLocation();
  }

  /** The table as Trino's own catalog loaded it, with the file IO it reads and writes through. */
  private Table trinoTable(String name) {
    var connector =
        (IcebergConnector) getDistributedQueryRunner().getCoordinator().getConnector("iceberg");
    return connector
        .getInjector()
        .getInstance(TrinoCatalogFactory.class)
        .create(getSession().getIdentity().toConnectorIdentity())
        .loadTable(getSession().toConnectorSession(), new SchemaTableName("tpch", name));
  }

  private S3Client s3With(Map<String, String> vended) {
    return S3Client.builder()
        .endpointOverride(URI.create(twin.s3Endpoint()))
        .forcePathStyle(true)
        .region(Region.of(twin.region()))
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsSessionCredentials.create(
                    vended.get("s3.access-key-id"),
                    vended.get("s3.secret-access-key"),
                    vended.get("s3.session-token"))))
        .build();
  }

  /** Reads an object {@code s3://bucket/key} and returns its size. */
  private static long read(S3Client s3, String location) {
    URI uri = URI.create(location);
    return s3.getObject(
            request -> request.bucket(uri.getHost()).key(uri.getPath().substring(1)),
            ResponseTransformer.toBytes())
        .asByteArray()
        .length;
  }
}
