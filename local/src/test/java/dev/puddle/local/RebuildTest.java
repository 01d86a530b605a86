package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.contract.Route;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.auth.RootCaller;
import dev.puddle.core.metastore.CatalogExport;
import dev.puddle.core.metastore.Migrations;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.metastore.access.RealmBootstrap;
import dev.puddle.core.rest.CatalogApi;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.view.View;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A populated catalog loses its metastore (the schema dropped and migrated anew, as a new cluster
 * would be) and is rebuilt from the warehouse and the latest export: every table at its last
 * committed metadata, the view at its current version, and every principal, role and grant as it
 * was.
 */
class RebuildTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final Namespace TOP = Namespace.of("sales");
  private static final Namespace NESTED = Namespace.of("sales", "eu");
  private static final List<String> ACCESS_SECTIONS =
      List.of(
          "principals",
          "principalRoles",
          "principalRoleGrants",
          "catalogRoles",
          "catalogRoleGrants",
          "privilegeGrants",
          "namespaces",
          "warehouses");

  private static LocalTwin twin;

  @BeforeAll
  static void start() throws Exception {
    Path data = Files.createTempDirectory("puddle-rebuild-");
    twin =
        LocalTwin.start(
            new LocalTwin.Options(
                data,
                "127.0.0.1",
                0,
                0,
                0,
                0,
                TestTwin.PURGE,
                TestTwin.ROOT,
                LocalPostgres.Durability.FAST,
                dev.puddle.functions.RequestLog.text(
                    System.out, java.time.ZoneId.systemDefault())));
  }

  @AfterAll
  static void stop() {
    twin.close();
  }

  @Test
  void aLostMetastoreComesBackFromTheWarehouseAndTheExport() throws Exception {
    Map<String, String> tables = new HashMap<>();
    String viewVersion;
    try (RESTCatalog catalog = client()) {
      catalog.createNamespace(TOP, new HashMap<>(Map.of("owner", "finance")));
      catalog.createNamespace(NESTED, new HashMap<>(Map.of("region", "eu-west-1")));
      for (TableIdentifier id :
          List.of(TableIdentifier.of(TOP, "orders"), TableIdentifier.of(NESTED, "invoices"))) {
        Table table = catalog.createTable(id, SCHEMA);
        for (int i = 0; i < 3; i++) {
          table.newAppend().appendFile(dataFile(table, id.name() + i + ".parquet")).commit();
        }
        tables.put(id.toString(), metadataLocation(catalog.loadTable(id)));
      }
      TableIdentifier viewId = TableIdentifier.of(NESTED, "recent");
      catalog
          .buildView(viewId)
          .withSchema(SCHEMA)
          .withDefaultNamespace(NESTED)
          .withQuery("spark", "SELECT 1 AS id")
          .create();
      catalog
          .buildView(viewId)
          .withSchema(SCHEMA)
          .withDefaultNamespace(NESTED)
          .withQuery("spark", "SELECT 2 AS id")
          .createOrReplace();
      View view = catalog.loadView(viewId);
      viewVersion = view.currentVersion().versionId() + ":" + view.sqlFor("spark").sql();
    }
    admin(Route.CREATE_PRINCIPAL, Map.of(), "{\"principal\":{\"name\":\"analyst\"}}", 201);
    admin(
        Route.CREATE_PRINCIPAL_ROLE, Map.of(), "{\"principalRole\":{\"name\":\"analysts\"}}", 201);
    admin(
        Route.ASSIGN_PRINCIPAL_ROLE,
        Map.of("principal", "analyst"),
        "{\"principalRole\":{\"name\":\"analysts\"}}",
        204);
    admin(
        Route.CREATE_CATALOG_ROLE,
        Map.of("warehouse", LocalTwin.WAREHOUSE),
        "{\"catalogRole\":{\"name\":\"readers\"}}",
        201);
    admin(
        Route.ASSIGN_CATALOG_ROLE,
        Map.of("principalRole", "analysts", "warehouse", LocalTwin.WAREHOUSE),
        "{\"catalogRole\":{\"name\":\"readers\"}}",
        204);
    Map<String, String> grantPath =
        Map.of("warehouse", LocalTwin.WAREHOUSE, "catalogRole", "readers");
    admin(
        Route.ADD_GRANT,
        grantPath,
        "{\"grant\":{\"type\":\"namespace\",\"namespace\":[\"sales\",\"eu\"],"
            + "\"privilege\":\"NAMESPACE_READ_PROPERTIES\"}}",
        204);
    admin(
        Route.ADD_GRANT,
        grantPath,
        "{\"grant\":{\"type\":\"table\",\"namespace\":[\"sales\"],\"tableName\":\"orders\","
            + "\"privilege\":\"TABLE_READ_DATA\"}}",
        204);
    admin(
        Route.ADD_GRANT,
        grantPath,
        "{\"grant\":{\"type\":\"view\",\"namespace\":[\"sales\",\"eu\"],\"viewName\":\"recent\","
            + "\"privilege\":\"VIEW_READ_PROPERTIES\"}}",
        204);

    List<Integer> answersBefore = analystsAnswers();
    assertThat(answersBefore).contains(200).contains(403);
    ObjectNode exported = twin.recovery().exportNow();
    assertThat(exported.path("location").asText()).startsWith(LocalRecovery.EXPORT_LOCATION);
    JsonNode before = new CatalogExport(twin.database()).read(Instant.EPOCH);
    // garbage in the warehouse: a metadata file that does not parse
    String stray = "default/sales/stray-table/metadata/00001-x.metadata.json";
    try (var out =
        twin.storage()
            .io()
            .newOutputFile("s3://" + LocalTwin.BUCKET + "/" + stray)
            .createOrOverwrite()) {
      out.write("{\"not\":\"metadata\"".getBytes(StandardCharsets.UTF_8));
    }

    assertThat(twin.recovery().rebuild(false).path("error").asText())
        .contains("The metastore is not empty");

    loseTheMetastore();
    ObjectNode report = twin.recovery().rebuild(false);
    System.out.println(report.toPrettyString());

    assertThat(report.path("error").isMissingNode()).as(report.toString()).isTrue();
    JsonNode warehouse = report.path("warehouses").get(0);
    List<String> registered = new ArrayList<>();
    warehouse.path("registered").forEach(r -> registered.add(r.path("identifier").asText()));
    assertThat(registered)
        .containsExactlyInAnyOrder("sales.orders", "sales.eu.invoices", "sales.eu.recent");
    assertThat(warehouse.path("skipped").toString()).contains(stray).contains("not table or view");
    assertThat(warehouse.path("superseded").asInt()).isGreaterThanOrEqualTo(6);

    JsonNode after = new CatalogExport(twin.database()).read(Instant.EPOCH);
    // root was bootstrapped anew with the same secret (a new salt), as a deploy gives it
    withoutRootsHash(before);
    withoutRootsHash(after);
    for (String section : ACCESS_SECTIONS) {
      assertThat(after.path(section)).as(section).isEqualTo(before.path(section));
    }
    assertThat(analystsAnswers()).isEqualTo(answersBefore);
    // a fresh catalog (no lookups cached from before the loss) serves the rebuilt state
    try (RESTCatalog catalog = client()) {
      for (Map.Entry<String, String> table : tables.entrySet()) {
        assertThat(metadataLocation(catalog.loadTable(TableIdentifier.parse(table.getKey()))))
            .isEqualTo(table.getValue());
      }
      View view = catalog.loadView(TableIdentifier.of(NESTED, "recent"));
      assertThat(view.currentVersion().versionId() + ":" + view.sqlFor("spark").sql())
          .isEqualTo(viewVersion);
      assertThat(catalog.loadNamespaceMetadata(NESTED)).containsEntry("region", "eu-west-1");
    }
  }

  private static void withoutRootsHash(JsonNode export) {
    for (JsonNode principal : export.path("principals")) {
      if (principal.path("name").asText().equals("root")) {
        ((ObjectNode) principal).remove(List.of("secretSalt", "secretHash"));
      }
    }
  }

  /** Drops every table of the metastore and migrates it again, as a new, empty cluster. */
  private static void loseTheMetastore() {
    twin.database()
        .autocommit(
            connection -> {
              try (var statement = connection.createStatement()) {
                statement.execute("DROP SCHEMA public CASCADE");
                statement.execute("CREATE SCHEMA public");
              }
              return null;
            });
    Migrations.migrate(twin.database());
    new RealmBootstrap(twin.database()).bootstrap(LocalTwin.REALM, TestTwin.ROOT);
    new Warehouses(twin.database())
        .ensure(
            LocalTwin.REALM,
            LocalTwin.WAREHOUSE,
            "s3://" + LocalTwin.BUCKET + "/" + LocalTwin.WAREHOUSE,
            Map.of());
  }

  private static RESTCatalog client() {
    return TestTwin.client(
        twin.uri(),
        LocalTwin.WAREHOUSE,
        Map.of("credential", TestTwin.ROOT.clientId() + ":" + TestTwin.ROOT.clientSecret()));
  }

  /**
   * What the analyst is answered, with a fresh catalog, for loads its grants do and do not allow.
   */
  private static List<Integer> analystsAnswers() {
    CatalogApi api =
        CatalogApi.builder(
                new CatalogApi.Settings(LocalTwin.REALM, LocalTwin.WAREHOUSE),
                twin.database(),
                twin.storage())
            .authenticator(request -> Caller.withAllRoles(LocalTwin.REALM, "analyst"))
            .build();
    List<Integer> answers = new ArrayList<>();
    for (Map<String, String> path :
        List.of(
            Map.of("prefix", LocalTwin.WAREHOUSE, "namespace", "sales", "table", "orders"),
            Map.of(
                "prefix",
                LocalTwin.WAREHOUSE,
                "namespace",
                "sales\u001Feu",
                "table",
                "invoices"))) {
      answers.add(
          api.handle(new Request(Route.LOAD_TABLE, path, Map.of(), Map.of(), null)).status());
    }
    Map<String, String> view =
        Map.of("prefix", LocalTwin.WAREHOUSE, "namespace", "sales\u001Feu", "view", "recent");
    answers.add(api.handle(new Request(Route.LOAD_VIEW, view, Map.of(), Map.of(), null)).status());
    Map<String, String> namespace =
        Map.of("prefix", LocalTwin.WAREHOUSE, "namespace", "sales\u001Feu");
    answers.add(
        api.handle(new Request(Route.LOAD_NAMESPACE, namespace, Map.of(), Map.of(), null))
            .status());
    Map<String, String> top = Map.of("prefix", LocalTwin.WAREHOUSE, "namespace", "sales");
    answers.add(
        api.handle(new Request(Route.LOAD_NAMESPACE, top, Map.of(), Map.of(), null)).status());
    return answers;
  }

  private static void admin(Route route, Map<String, String> path, String body, int status) {
    CatalogApi root =
        CatalogApi.builder(
                new CatalogApi.Settings(LocalTwin.REALM, LocalTwin.WAREHOUSE),
                twin.database(),
                twin.storage())
            .authenticator(RootCaller.of(LocalTwin.REALM))
            .build();
    Response response = root.handle(new Request(route, path, Map.of(), Map.of(), body));
    assertThat(response.status()).as("%s: %s", route, response.body()).isEqualTo(status);
  }

  private static String metadataLocation(Table table) {
    return ((HasTableOperations) table).operations().current().metadataFileLocation();
  }

  private static DataFile dataFile(Table table, String name) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/" + name)
        .withFileSizeInBytes(10)
        .withRecordCount(1)
        .build();
  }
}
