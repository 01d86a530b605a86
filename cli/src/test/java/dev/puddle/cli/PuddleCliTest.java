package dev.puddle.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.maintenance.MaintenanceOutbox;
import dev.puddle.functions.RequestLog;
import dev.puddle.local.LocalPostgres;
import dev.puddle.local.LocalPurge;
import dev.puddle.local.LocalTwin;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.rest.auth.OAuth2Properties;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * {@code puddle} against a local twin started here: every sub-command's success and its error
 * paths, each through the CLI's main entry in-process, and the seed scenario checked with Iceberg's
 * own client.
 */
class PuddleCliTest {
  private static final PrincipalCredential ROOT =
      new PrincipalCredential("cli-root", "cli-root-secret-not-for-production");
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(
              2,
              "customer",
              Types.StructType.of(
                  Types.NestedField.optional(3, "name", Types.StringType.get(), "who ordered"))));
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir static Path data;
  @TempDir static Path config;

  private static LocalTwin twin;
  private static RESTCatalog root;
  private static Cli cli;

  @BeforeAll
  static void startTwin() throws IOException {
    // short purge timings, so that a poison job reaches the dead-letter queue within seconds
    LocalPurge.Options purge =
        new LocalPurge.Options(
            Duration.ofSeconds(3),
            Duration.ofSeconds(4),
            2,
            Duration.ofSeconds(30),
            LocalPurge.Options.DEFAULTS.sweep(),
            MaintenanceOutbox.Settings.DEFAULTS);
    twin =
        LocalTwin.start(
            new LocalTwin.Options(
                Files.createDirectories(data.resolve("twin")),
                "127.0.0.1",
                0,
                0,
                0,
                0,
                purge,
                ROOT,
                LocalPostgres.Durability.FAST,
                RequestLog.text(
                    new PrintStream(OutputStream.nullOutputStream()), ZoneId.of("UTC"))));
    root = client(ROOT.clientId() + ":" + ROOT.clientSecret());
    root.createNamespace(Namespace.of("sales"), new HashMap<>());
    root.createNamespace(Namespace.of("sales", "eu"), new HashMap<>(Map.of("region", "eu-west-1")));
    root.createNamespace(Namespace.of("hr"), new HashMap<>());
    Table orders = root.createTable(TableIdentifier.of("sales", "orders"), SCHEMA);
    orders.newFastAppend().appendFile(dataFile(orders, "a")).commit();
    orders.newFastAppend().appendFile(dataFile(orders, "b")).commit();
    orders.updateProperties().set("owner", "sales-team").commit();
    root.createTable(TableIdentifier.of("hr", "people"), SCHEMA);
    root.buildView(TableIdentifier.of("sales", "eu", "daily"))
        .withSchema(SCHEMA)
        .withDefaultNamespace(Namespace.of("sales"))
        .withQuery("spark", "SELECT id, customer FROM orders")
        .create();
    cli =
        new Cli(
            Map.of(
                "PUDDLE_URI", twin.uri(),
                // one token for the class: each credential costs the catalog a salted hash
                "PUDDLE_TOKEN", token(ROOT),
                "XDG_CONFIG_HOME", config.toString()));
  }

  @AfterAll
  static void stopTwin() throws IOException {
    if (root != null) {
      root.close();
    }
    if (twin != null) {
      twin.close();
    }
  }

  /**
   * A second engine that may only read {@code sales}, in five commands; then Iceberg's client, as
   * that principal, reads its tables and is refused everything else.
   */
  @Test
  void theSeedScenarioInFiveCommandsMakesAReadOnlyPrincipalForOneNamespace() throws IOException {
    Cli asRoot = byCredential(ROOT.clientId() + ":" + ROOT.clientSecret());
    asRoot.run("principal-roles", "create", "bi_readers").succeeds();
    Cli.Run created =
        asRoot
            .run("principals", "create", "trino", "--principal-role", "bi_readers", "-o", "json")
            .succeeds();
    asRoot.run("catalog-roles", "create", "sales_reader").succeeds();
    asRoot
        .run("assign", "catalog-role", "sales_reader", "to", "principal-role", "bi_readers")
        .succeeds();
    Cli.Run granted =
        asRoot
            .run(
                "grant",
                "TABLE_READ_DATA",
                "on",
                "namespace",
                "sales",
                "to",
                "catalog-role",
                "sales_reader")
            .succeeds();

    assertThat(granted.out())
        .isEqualTo("Granted TABLE_READ_DATA on namespace sales to catalog role sales_reader\n");
    String credential =
        created.json().at("/credentials/clientId").asText()
            + ":"
            + created.json().at("/credentials/clientSecret").asText();
    try (RESTCatalog trino = client(credential)) {
      assertThat(trino.loadTable(TableIdentifier.of("sales", "orders")).currentSnapshot())
          .isNotNull();
      assertThat(trino.listNamespaces()).containsExactly(Namespace.of("sales"));
      assertThatThrownBy(() -> trino.createTable(TableIdentifier.of("sales", "new"), SCHEMA))
          .isInstanceOf(ForbiddenException.class);
      assertThatThrownBy(() -> trino.loadTable(TableIdentifier.of("hr", "people")))
          .isInstanceOf(ForbiddenException.class);
    }
    Cli asTrino = byCredential(credential);
    asTrino.run("tables", "list", "sales").succeeds();
    assertThat(asTrino.run("warehouses", "list").fails(ExitCode.REFUSED).err())
        .contains("is not authorized");
    assertThat(cli.run("grants", "list", "sales_reader").succeeds().out())
        .isEqualTo("PRIVILEGE        ON\nTABLE_READ_DATA  namespace sales\n");
  }

  @Test
  void warehouses() {
    Cli.Run created =
        cli.run(
                "warehouses",
                "create",
                "analytics",
                "--location",
                "s3://warehouse/analytics",
                "--property",
                "team=bi")
            .succeeds();
    assertThat(created.out())
        .isEqualTo("Created warehouse analytics at s3://warehouse/analytics\n");
    assertThat(cli.run("warehouses", "list").succeeds().out())
        .containsPattern("(?m)^NAME +LOCATION +PROPERTIES$")
        .containsPattern("(?m)^analytics +s3://warehouse/analytics +team=bi$");
    assertThat(cli.run("warehouses", "show", "analytics", "-o", "json").succeeds().json())
        .isEqualTo(
            CatalogClient.JSON
                .createObjectNode()
                .put("name", "analytics")
                .put("location", "s3://warehouse/analytics")
                .set("properties", CatalogClient.JSON.createObjectNode().put("team", "bi")));
    assertThat(
            cli.run("warehouses", "create", "analytics", "--location", "s3://warehouse/x")
                .fails(ExitCode.CONFLICT)
                .err())
        .isEqualTo("puddle: Warehouse already exists: analytics (AlreadyExistsException)\n");
    assertThat(cli.run("warehouses", "create", "nowhere").fails(ExitCode.USAGE).err())
        .contains("Missing required option: '--location=S3_URI'");
    cli.run("warehouses", "delete", "analytics").succeeds();
    assertThat(cli.run("warehouses", "show", "analytics").fails(ExitCode.NOT_FOUND).err())
        .contains("Warehouse does not exist: analytics");
    assertThat(cli.run("warehouses", "delete", "default").fails(ExitCode.CONFLICT).err())
        .contains("namespaces");
  }

  @Test
  void principalsShowTheirSecretOnlyWhenCreatedOrRotated() {
    Cli.Run created = cli.run("principals", "create", "spark", "--property", "team=etl").succeeds();
    String credential = value(created.out(), "credential");
    assertThat(created.out()).contains("shown only now");
    byCredential(credential).run("namespaces", "list").fails(ExitCode.REFUSED);
    assertThat(cli.run("principals", "list").succeeds().out())
        .containsPattern("(?m)^spark +" + credential.split(":")[0] + " +team=etl$");
    Cli.Run shown = cli.run("principals", "show", "spark").succeeds();
    assertThat(shown.out()).doesNotContain(credential.split(":")[1]);

    Cli.Run rotated = cli.run("principals", "rotate", "spark").succeeds();
    String newCredential = value(rotated.out(), "credential");
    assertThat(newCredential).startsWith(credential.split(":")[0] + ":").isNotEqualTo(credential);
    assertThat(byCredential(credential).run("principals", "list").fails(ExitCode.REFUSED).err())
        .startsWith("puddle: The catalog issued no token: ");

    cli.run("principals", "delete", "spark").succeeds();
    cli.run("principals", "show", "spark").fails(ExitCode.NOT_FOUND);
    cli.run("principals", "rotate", "spark").fails(ExitCode.NOT_FOUND);
    cli.run("principals", "delete", "spark").fails(ExitCode.NOT_FOUND);
    assertThat(cli.run("principals", "create", "bad/name").fails(ExitCode.FAILED).err())
        .contains("BadRequestException");
  }

  @Test
  void principalRolesCatalogRolesAndTheirAssignments() {
    cli.run("principal-roles", "create", "auditors", "--property", "owner=sec").succeeds();
    assertThat(cli.run("principal-roles", "list").succeeds().out())
        .containsPattern("(?m)^auditors +owner=sec$")
        .containsPattern("(?m)^service_admin");
    cli.run("principal-roles", "create", "auditors").fails(ExitCode.CONFLICT);
    cli.run("catalog-roles", "create", "audit").succeeds();
    assertThat(cli.run("catalog-roles", "list", "-o", "json").succeeds().json().get("roles"))
        .extracting(role -> role.get("name").asText())
        .contains("catalog_admin", "audit");
    cli.run("catalog-roles", "list", "--warehouse", "missing").fails(ExitCode.NOT_FOUND);
    cli.run("principals", "create", "auditor").succeeds();

    assertThat(
            cli.run("assign", "principal-role", "auditors", "to", "principal", "auditor")
                .succeeds()
                .out())
        .isEqualTo("Assigned principal role auditors to principal auditor\n");
    cli.run("assign", "catalog-role", "audit", "to", "principal-role", "auditors").succeeds();
    cli.run("assign", "catalog-role", "nope", "to", "principal-role", "auditors")
        .fails(ExitCode.NOT_FOUND);
    assertThat(
            cli.run("assign", "principal-role", "auditors", "to", "catalog-role", "audit")
                .fails(ExitCode.USAGE)
                .err())
        .contains("Cannot assign a principal-role to a catalog-role");
    cli.run("assign", "principal-role", "auditors", "onto", "principal", "auditor")
        .fails(ExitCode.USAGE);
    cli.run("unassign", "catalog-role", "audit", "from", "principal-role", "auditors").succeeds();
    cli.run("unassign", "catalog-role", "audit", "from", "principal-role", "auditors")
        .fails(ExitCode.NOT_FOUND);
    cli.run("unassign", "principal-role", "auditors", "from", "principal", "auditor").succeeds();

    cli.run("catalog-roles", "delete", "audit").succeeds();
    cli.run("catalog-roles", "delete", "audit").fails(ExitCode.NOT_FOUND);
    cli.run("principal-roles", "delete", "auditors").succeeds();
    cli.run("principal-roles", "delete", "auditors").fails(ExitCode.NOT_FOUND);
    cli.run("principals", "delete", "auditor").succeeds();
  }

  @Test
  void grantsOnEveryKindOfSecurable() {
    cli.run("catalog-roles", "create", "editors").succeeds();
    cli.run("grant", "catalog_manage_content", "on", "catalog", "to", "catalog-role", "editors")
        .succeeds();
    cli.run(
            "grant",
            "TABLE_WRITE_DATA",
            "on",
            "table",
            "sales.orders",
            "to",
            "catalog-role",
            "editors")
        .succeeds();
    cli.run(
            "grant",
            "VIEW_READ_PROPERTIES",
            "on",
            "view",
            "sales.eu.daily",
            "to",
            "catalog-role",
            "editors")
        .succeeds();
    cli.run(
            "grant",
            "NAMESPACE_LIST",
            "on",
            "namespace",
            "sales.eu",
            "to",
            "catalog-role",
            "editors")
        .succeeds();

    assertThat(cli.run("grants", "list", "editors").succeeds().out().lines().skip(1).sorted())
        .containsExactly(
            "CATALOG_MANAGE_CONTENT  catalog",
            "NAMESPACE_LIST          namespace sales.eu",
            "TABLE_WRITE_DATA        table sales.orders",
            "VIEW_READ_PROPERTIES    view sales.eu.daily");
    cli.run(
            "revoke",
            "TABLE_WRITE_DATA",
            "on",
            "table",
            "sales.orders",
            "from",
            "catalog-role",
            "editors")
        .succeeds();
    assertThat(
            cli.run(
                    "revoke",
                    "TABLE_WRITE_DATA",
                    "on",
                    "table",
                    "sales.orders",
                    "from",
                    "catalog-role",
                    "editors")
                .fails(ExitCode.NOT_FOUND)
                .err())
        .startsWith("puddle: ");
    assertThat(
            cli.run("grant", "TABLE_FLY", "on", "catalog", "to", "catalog-role", "editors")
                .fails(ExitCode.FAILED)
                .err())
        .contains("TABLE_FLY");
    assertThat(
            cli.run(
                    "grant",
                    "TABLE_READ_DATA",
                    "on",
                    "table",
                    "orders",
                    "to",
                    "catalog-role",
                    "editors")
                .fails(ExitCode.USAGE)
                .err())
        .contains("NAMESPACE.TABLE");
    cli.run("grant", "TABLE_READ_DATA", "on", "bucket", "x", "to", "catalog-role", "editors")
        .fails(ExitCode.USAGE);
    cli.run("grant", "TABLE_READ_DATA", "to", "catalog-role", "editors", "now")
        .fails(ExitCode.USAGE);
    cli.run("grant", "TABLE_READ_DATA", "on", "catalog", "to", "catalog-role", "ghosts")
        .fails(ExitCode.NOT_FOUND);
    cli.run("grants", "list", "ghosts").fails(ExitCode.NOT_FOUND);
    cli.run("catalog-roles", "delete", "editors").succeeds();
  }

  @Test
  void namespacesAndTablesThroughTheIcebergApi() {
    assertThat(cli.run("namespaces", "list").succeeds().out().lines())
        .containsExactlyElementsOf(
            java.util.stream.Stream.concat(
                    java.util.stream.Stream.of("NAMESPACE"),
                    root.listNamespaces().stream().map(Namespace::toString))
                .toList())
        .contains("sales", "hr");
    assertThat(cli.run("namespaces", "list", "sales").succeeds().out())
        .isEqualTo("NAMESPACE\nsales.eu\n");
    assertThat(cli.run("namespaces", "show", "sales.eu").succeeds().out())
        .containsPattern("(?m)^property.region +eu-west-1$");
    cli.run("namespaces", "show", "nope").fails(ExitCode.NOT_FOUND);
    cli.run("namespaces", "show", "sales..eu").fails(ExitCode.USAGE);

    assertThat(cli.run("tables", "list", "sales").succeeds().out())
        .isEqualTo("TABLE\nsales.orders\n");
    assertThat(
            cli.run("tables", "list", "sales", "-o", "json").succeeds().json().get("identifiers"))
        .isEqualTo(readTree("[{\"namespace\":[\"sales\"],\"name\":\"orders\"}]"));
    Table orders = root.loadTable(TableIdentifier.of("sales", "orders"));
    assertThat(cli.run("tables", "show", "sales.orders").succeeds().out())
        .containsPattern("(?m)^uuid +" + orders.uuid() + "$")
        .containsPattern("(?m)^current snapshot +" + orders.currentSnapshot().snapshotId() + "$")
        .containsPattern("(?m)^snapshots +2$");
    assertThat(cli.run("tables", "schema", "sales.orders").succeeds().out())
        .isEqualTo(
            """
            ID  NAME           TYPE    NULLABILITY  DOC
            1   id             long    required
            2   customer       struct  optional
            3   customer.name  string  optional     who ordered
            """);
    assertThat(
            cli.run("tables", "schema", "sales.orders", "-o", "json")
                .succeeds()
                .json()
                .at("/fields/1/type/fields/0/name")
                .asText())
        .isEqualTo("name");
    List<String> snapshots =
        cli.run("tables", "snapshots", "sales.orders").succeeds().out().lines().toList();
    assertThat(snapshots).hasSize(3);
    assertThat(snapshots.get(2))
        .startsWith(String.valueOf(orders.currentSnapshot().snapshotId()))
        .contains(" append ", " main ", "added-data-files=1", "total-data-files=2");
    assertThat(
            cli.run("tables", "snapshots", "sales.orders", "-o", "json")
                .succeeds()
                .json()
                .get("snapshots"))
        .hasSize(2);
    assertThat(cli.run("tables", "properties", "sales.orders").succeeds().out())
        .containsPattern("(?m)^owner +sales-team$");
    assertThat(cli.run("tables", "show", "sales.missing").fails(ExitCode.NOT_FOUND).err())
        .contains("Table does not exist");
    cli.run("tables", "schema", "orders").fails(ExitCode.USAGE);
    cli.run("tables", "list", "missing").fails(ExitCode.NOT_FOUND);
  }

  /** A purge that fails lands in the dead-letter queue; fixed and redriven, it finishes. */
  @Test
  void purgeJobsAndTheDeadLetterQueue() throws IOException {
    assertThat(cli.run("dead-letters", "list").succeeds().out()).doesNotContain("sales.poison");
    TableIdentifier id = TableIdentifier.of("sales", "poison");
    Table table = root.createTable(id, SCHEMA);
    String metadata = ((HasTableOperations) table).operations().current().metadataFileLocation();
    String key = metadata.substring(("s3://" + LocalTwin.BUCKET + "/").length());
    try (S3Client s3 = S3Objects.client(twin.storage().clientProperties())) {
      byte[] good = s3.getObjectAsBytes(b -> b.bucket(LocalTwin.BUCKET).key(key)).asByteArray();
      s3.putObject(
          b -> b.bucket(LocalTwin.BUCKET).key(key), RequestBody.fromString("{ not metadata"));
      root.dropTable(id, true);

      JsonNode failed =
          waitFor(
              () -> job(cli.run("dead-letters", "list", "-o", "json").succeeds().json(), id),
              "the job in the dead-letter queue");
      String jobId = failed.get("id").asText();
      String error = failed.get("last-error").asText();
      assertThat(error).contains(metadata);
      assertThat(cli.run("dead-letters", "list").succeeds().out())
          .containsPattern(
              "(?m)^" + jobId + " +sales\\.poison +2 +\\S+ +\\Q" + error.substring(0, 20) + "\\E");
      assertThat(cli.run("purge-jobs", "show", jobId).succeeds().out())
          .containsPattern("(?m)^state +failed$")
          .contains("last-error         " + Printer.text(error)); // its line break escaped
      assertThat(cli.run("dead-letters", "show", jobId, "-o", "json").succeeds().json())
          .isEqualTo(failed);

      s3.putObject(b -> b.bucket(LocalTwin.BUCKET).key(key), RequestBody.fromBytes(good));
      assertThat(cli.run("dead-letters", "redrive", "--all").succeeds().out())
          .isEqualTo("Redrove purge job " + jobId + ": queued again\n");
    }
    waitFor(
        () ->
            job(
                cli.run("purge-jobs", "list", "--state", "done", "-o", "json").succeeds().json(),
                id),
        "the redriven job done");
    assertThat(cli.run("purge-jobs", "list").succeeds().out())
        .containsPattern("(?m)^ID +IDENTIFIER +STATE .*$")
        .containsPattern("sales.poison +done +done");
    String jobId =
        job(cli.run("purge-jobs", "list", "-o", "json").succeeds().json(), id).get("id").asText();
    assertThat(cli.run("purge-jobs", "redrive", jobId).fails(ExitCode.CONFLICT).err())
        .contains("only a failed job can be redriven");
    cli.run("purge-jobs", "show", "6f1c2a4e-0b7d-4c3e-9a51-2f8d7e6c5b4a").fails(ExitCode.NOT_FOUND);
    cli.run("purge-jobs", "show", "not-a-uuid").fails(ExitCode.FAILED);
    cli.run("purge-jobs", "list", "--state", "lost").fails(ExitCode.FAILED);
    cli.run("dead-letters", "redrive").fails(ExitCode.USAGE);
    assertThat(cli.run("dead-letters", "redrive", "--all").succeeds().out())
        .isEqualTo("No failed purge jobs in warehouse default\n");
  }

  @Test
  void aProfileSuppliesTheCatalogAndTheCredential() throws IOException {
    Path file = Profile.file("twin", Map.of("XDG_CONFIG_HOME", config.toString()));
    Files.createDirectories(file.getParent());
    Files.writeString(
        file,
        "uri=" + twin.uri() + "\ncredential=" + ROOT.clientId() + ":" + ROOT.clientSecret() + "\n");
    Files.setPosixFilePermissions(
        file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    Cli bare = cli.with("PUDDLE_URI", null).with("PUDDLE_TOKEN", null);

    bare.run("--profile", "twin", "warehouses", "list").succeeds();
    bare.with("PUDDLE_PROFILE", "twin").run("principals", "list").succeeds();
    Files.setPosixFilePermissions(
        file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    assertThat(bare.run("warehouses", "list", "--profile", "twin").fails(ExitCode.USAGE).err())
        .contains("is not private (mode rw-r--r--)", "chmod 600");
  }

  private static JsonNode job(JsonNode answer, TableIdentifier id) {
    for (JsonNode job : answer.get("purge-jobs")) {
      if (job.get("identifier").asText().equals(id.toString())) {
        return job;
      }
    }
    return null;
  }

  private static JsonNode readTree(String json) {
    try {
      return CatalogClient.JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The value in a two-column {@code FIELD VALUE} table's row {@code field}. */
  private static String value(String table, String field) {
    return table
        .lines()
        .filter(line -> line.startsWith(field + " "))
        .map(line -> line.substring(field.length()).strip())
        .findFirst()
        .orElseThrow(() -> new AssertionError("No " + field + " in " + table));
  }

  private static <T> T waitFor(Supplier<T> probe, String what) {
    Instant deadline = Instant.now().plus(WAIT);
    while (Instant.now().isBefore(deadline)) {
      T value = probe.get();
      if (value != null) {
        return value;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    throw new AssertionError("Timed out waiting for " + what);
  }

  private static DataFile dataFile(Table table, String name) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/" + name + ".parquet")
        .withFileSizeInBytes(100)
        .withRecordCount(10)
        .build();
  }

  /** The CLI signing in with a credential, as people do, instead of the class's token. */
  private static Cli byCredential(String credential) {
    return cli.with("PUDDLE_TOKEN", null).with("PUDDLE_CREDENTIAL", credential);
  }

  /** A token for root, from the twin's token endpoint. */
  private static String token(PrincipalCredential credential) throws IOException {
    String form =
        "grant_type=client_credentials&scope=PRINCIPAL_ROLE:ALL&client_id="
            + credential.clientId()
            + "&client_secret="
            + credential.clientSecret();
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(twin.uri() + "/v1/oauth/tokens"))
                  .header("Content-Type", "application/x-www-form-urlencoded")
                  .POST(HttpRequest.BodyPublishers.ofString(form))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      return CatalogClient.JSON.readTree(response.body()).get("access_token").asText();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  private static RESTCatalog client(String credential) {
    Map<String, String> properties = new HashMap<>(twin.clientProperties());
    properties.put(OAuth2Properties.CREDENTIAL, credential);
    RESTCatalog catalog = new RESTCatalog();
    catalog.initialize("puddle", properties);
    return catalog;
  }
}
