package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.Route;
import dev.puddle.core.access.CallerAccess;
import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.access.Securable;
import dev.puddle.core.api.Deadline;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.RequestScope;
import dev.puddle.core.api.Response;
import dev.puddle.core.auth.Authenticator;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.auth.ClientCredentials.PrincipalRef;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.metastore.access.AccessQuery;
import dev.puddle.core.metastore.access.Principals;
import dev.puddle.core.metastore.access.RealmBootstrap;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.functions.CatalogHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.exceptions.NoSuchViewException;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The access model through the twin's PostgreSQL: principals, principal roles, catalog roles and
 * grants set up through the management API, and engines (Iceberg's own REST client) acting as
 * different principals. Until bearer tokens arrive, each principal gets its own endpoint whose
 * authenticator names it.
 */
class AccessControlTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final AtomicInteger NAMES = new AtomicInteger();
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final Namespace NS1 = Namespace.of("ns1");
  private static final Namespace NS2 = Namespace.of("ns2");

  @RegisterExtension final Closing closing = new Closing();
  private String warehouse;
  private CatalogApi root;

  @BeforeEach
  void setUp() {
    warehouse = TestTwin.newWarehouse("access");
    root = apiAs(Principals.ROOT);
  }

  /** The second-engine scenario: an engine scoped down to reading one namespace. */
  @Test
  void aReaderOfOneNamespaceLoadsWhatTheWriterCommittedAndNothingElse() {
    RESTCatalog writer = engine(Principals.ROOT);
    writer.createNamespace(NS1);
    writer.createNamespace(NS2);
    Table orders = writer.createTable(TableIdentifier.of(NS1, "orders"), SCHEMA);
    writer.createTable(TableIdentifier.of(NS2, "secrets"), SCHEMA);
    append(orders);
    orders.refresh();
    String reader = readerOf(NS1, "TABLE_READ_DATA");

    RESTCatalog second = engine(reader);
    Table seen = second.loadTable(TableIdentifier.of(NS1, "orders"));

    assertThat(seen.currentSnapshot().snapshotId())
        .isEqualTo(orders.currentSnapshot().snapshotId());
    assertThat(seen.location()).isEqualTo(orders.location());
    assertThatThrownBy(() -> append(seen)).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> seen.updateProperties().set("k", "v").commit())
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> second.createTable(TableIdentifier.of(NS1, "mine"), SCHEMA))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> second.dropTable(TableIdentifier.of(NS1, "orders")))
        .isInstanceOf(ForbiddenException.class);
    assertThat(second.listNamespaces()).containsExactly(NS1);
    assertThat(second.listTables(NS1)).containsExactly(TableIdentifier.of(NS1, "orders"));
    assertThatThrownBy(() -> second.loadTable(TableIdentifier.of(NS2, "secrets")))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> second.listTables(NS2)).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> second.namespaceExists(NS2)).isInstanceOf(ForbiddenException.class);
    // the writer's table is unchanged by the reader's attempts
    orders.refresh();
    assertThat(orders.currentSnapshot().snapshotId())
        .isEqualTo(seen.currentSnapshot().snapshotId());
    assertThat(orders.properties()).doesNotContainKey("k");
  }

  @Test
  void aGrantOnANamespaceReachesEverythingNestedInIt() {
    RESTCatalog writer = engine(Principals.ROOT);
    Namespace nested = Namespace.of("ns1", "eu", "daily");
    writer.createNamespace(NS1);
    writer.createNamespace(Namespace.of("ns1", "eu"));
    writer.createNamespace(nested);
    writer.createTable(TableIdentifier.of(nested, "orders"), SCHEMA);
    String reader = readerOf(NS1, "TABLE_READ_DATA");

    RESTCatalog second = engine(reader);

    assertThat(second.loadTable(TableIdentifier.of(nested, "orders")).schema().asStruct())
        .isEqualTo(SCHEMA.asStruct());
    assertThat(second.listNamespaces(NS1)).containsExactly(Namespace.of("ns1", "eu"));
    assertThat(second.listTables(nested)).containsExactly(TableIdentifier.of(nested, "orders"));
  }

  @Test
  void aGrantOnOneTableShowsThatTableOnly() {
    RESTCatalog writer = writerOfOrders();
    writer.createTable(TableIdentifier.of(NS1, "payroll"), SCHEMA);
    String reader = principalWithCatalogRole();
    expect(
        admin(
            Route.ADD_GRANT, grantPath(reader), grant("table", "ns1", "orders", "TABLE_READ_DATA")),
        204);

    RESTCatalog second = engine(reader);

    assertThat(second.listNamespaces()).containsExactly(NS1);
    assertThat(second.listTables(NS1)).containsExactly(TableIdentifier.of(NS1, "orders"));
    assertThat(second.loadTable(TableIdentifier.of(NS1, "orders"))).isNotNull();
    assertThatThrownBy(() -> second.loadTable(TableIdentifier.of(NS1, "payroll")))
        .isInstanceOf(ForbiddenException.class);
  }

  /**
   * Trino looks a name up as a view before it loads it as a table: a reader of a namespace's tables
   * gets 404 for a view of a table's name, which tells it nothing it may not know (tables and views
   * share one identifier space); a name it may not know of stays refused.
   */
  @Test
  void aNameHoldingTheOtherKindIsNotFoundToWhoMayKnowIt() {
    RESTCatalog writer = engine(Principals.ROOT);
    writer.createNamespace(NS1);
    TableIdentifier orders = TableIdentifier.of(NS1, "orders");
    TableIdentifier recent = TableIdentifier.of(NS1, "recent");
    writer.createTable(orders, SCHEMA);
    writer
        .buildView(recent)
        .withSchema(SCHEMA)
        .withDefaultNamespace(NS1)
        .withQuery("spark", "SELECT * FROM ns1.orders")
        .create();
    RESTCatalog tables = engine(readerOf(NS1, "TABLE_READ_DATA"));
    RESTCatalog views = engine(readerOf(NS1, "VIEW_READ_PROPERTIES"));

    assertThatThrownBy(() -> tables.loadView(orders)).isInstanceOf(NoSuchViewException.class);
    assertThat(tables.viewExists(orders)).isFalse();
    assertThatThrownBy(() -> views.loadTable(recent)).isInstanceOf(NoSuchTableException.class);
    assertThat(views.tableExists(recent)).isFalse();
    TableIdentifier missing = TableIdentifier.of(NS1, "missing");
    assertThatThrownBy(() -> tables.loadView(missing)).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> tables.loadView(recent)).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> views.loadTable(missing)).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> views.loadTable(orders)).isInstanceOf(ForbiddenException.class);
    // who may know neither kind in that namespace learns nothing
    writer.createNamespace(NS2);
    RESTCatalog outsider = engine(readerOf(NS2, "TABLE_READ_DATA"));
    assertThatThrownBy(() -> outsider.loadView(orders)).isInstanceOf(ForbiddenException.class);
  }

  @Test
  void writePropertiesAllowsMetadataChangesButNotNewSnapshots() {
    RESTCatalog writer = writerOfOrders();
    String editor = readerOf(NS1, "TABLE_WRITE_PROPERTIES");

    Table table = engine(editor).loadTable(TableIdentifier.of(NS1, "orders"));
    table.updateProperties().set("owner", "sales").commit();

    assertThat(writer.loadTable(TableIdentifier.of(NS1, "orders")).properties())
        .containsEntry("owner", "sales");
    assertThatThrownBy(() -> append(table)).isInstanceOf(ForbiddenException.class);
  }

  @Test
  void registeringOverATableNeedsItsDataPrivilege() {
    RESTCatalog writer = engine(Principals.ROOT);
    writer.createNamespace(NS1);
    Table orders = writer.createTable(TableIdentifier.of(NS1, "orders"), SCHEMA);
    String metadata = ((HasTableOperations) orders).operations().current().metadataFileLocation();
    String creator = readerOf(NS1, "TABLE_CREATE");
    CatalogApi api = apiAs(creator);

    Response overwrite = api.handle(register("orders", metadata, true));
    Response copy = api.handle(register("orders_copy", metadata, false));

    forbidden(overwrite);
    expect(copy, 200);
    assertThat(writer.loadTable(TableIdentifier.of(NS1, "orders")).uuid()).isEqualTo(orders.uuid());
  }

  private Request register(String name, String metadataLocation, boolean overwrite) {
    return new Request(
        Route.REGISTER_TABLE,
        Map.of("prefix", warehouse, "namespace", "ns1"),
        Map.of(),
        Map.of(),
        "{\"name\":\""
            + name
            + "\",\"metadata-location\":\""
            + metadataLocation
            + "\",\"overwrite\":"
            + overwrite
            + "}");
  }

  @Test
  void anIdempotencyKeyReplaysOnlyToThePrincipalThatUsedIt() {
    String other = principalWithCatalogRole();
    Request create =
        new Request(
            Route.CREATE_NAMESPACE,
            Map.of("prefix", warehouse),
            Map.of(),
            Map.of(
                "idempotency-key",
                "0190b6f4-1111-7000-8000-" + String.format("%012d", NAMES.incrementAndGet())),
            "{\"namespace\":[\"ns1\"]}");
    CatalogApi rootWithKeys = api(Caller.withAllRoles(LocalTwin.REALM, Principals.ROOT), true);
    CatalogApi otherWithKeys = api(Caller.withAllRoles(LocalTwin.REALM, other), true);

    expect(rootWithKeys.handle(create), 200);
    expect(rootWithKeys.handle(create), 200);
    expectError(otherWithKeys.handle(create), 422, "UnprocessableEntityException");
  }

  @Test
  void aRevokedGrantStopsWorkingOnTheNextRequest() {
    writerOfOrders();
    String reader = readerOf(NS1, "TABLE_READ_DATA");
    RESTCatalog second = engine(reader);
    assertThat(second.tableExists(TableIdentifier.of(NS1, "orders"))).isTrue();

    expect(
        admin(
            Route.REVOKE_GRANT,
            grantPath(reader),
            grant("namespace", "ns1", null, "TABLE_READ_DATA")),
        204);

    assertThatThrownBy(() -> second.loadTable(TableIdentifier.of(NS1, "orders")))
        .isInstanceOf(ForbiddenException.class);
    assertThat(second.listNamespaces()).isEmpty();
  }

  @Test
  void revokingThePrincipalRoleOrDeletingThePrincipalEndsItsAccess() {
    writerOfOrders();
    String reader = readerOf(NS1, "TABLE_READ_DATA");
    String other = readerOf(NS1, "TABLE_READ_DATA");
    CatalogApi readerApi = apiAs(reader);
    CatalogApi otherApi = apiAs(other);
    expect(readerApi.handle(loadTable()), 200);

    expect(
        admin(
            Route.REVOKE_PRINCIPAL_ROLE,
            Map.of("principal", reader, "principalRole", reader + "-role"),
            null),
        204);
    expect(admin(Route.DELETE_PRINCIPAL, Map.of("principal", other), null), 204);

    forbidden(readerApi.handle(loadTable()));
    forbidden(otherApi.handle(loadTable()));
  }

  @Test
  void aTokenActivatesOnlyTheRolesItNames() {
    writerOfOrders();
    String reader = readerOf(NS1, "TABLE_READ_DATA");

    CatalogApi scoped = api(new Caller(LocalTwin.REALM, reader, false, Set.of(reader + "-role")));
    CatalogApi unscoped = api(new Caller(LocalTwin.REALM, reader, false, Set.of("another")));
    CatalogApi rootWithoutAdmin =
        api(new Caller(LocalTwin.REALM, Principals.ROOT, false, Set.of()));

    expect(scoped.handle(loadTable()), 200);
    forbidden(unscoped.handle(loadTable()));
    forbidden(rootWithoutAdmin.handle(loadTable()));
    forbidden(rootWithoutAdmin.handle(request(Route.LIST_PRINCIPALS, Map.of(), null)));
  }

  @Test
  void anotherRealmCannotTellTheWarehouseFromAMissingOne() {
    String realm = "tenant-" + NAMES.incrementAndGet();
    new RealmBootstrap(TestTwin.get().database()).bootstrap(realm, null);
    CatalogApi otherRoot = api(Caller.withAllRoles(realm, Principals.ROOT));
    engine(Principals.ROOT).createNamespace(NS1);

    Response theirs =
        otherRoot.handle(request(Route.LIST_NAMESPACES, Map.of("prefix", warehouse), null));
    Response missing =
        otherRoot.handle(request(Route.LIST_NAMESPACES, Map.of("prefix", "no-such"), null));
    Response config =
        otherRoot.handle(
            new Request(
                Route.GET_CONFIG, Map.of(), Map.of("warehouse", warehouse), Map.of(), null));
    Response managed =
        otherRoot.handle(request(Route.GET_WAREHOUSE, Map.of("warehouse", warehouse), null));

    notFound(theirs);
    notFound(missing);
    assertThat(message(theirs).replace(warehouse, "X"))
        .isEqualTo(message(missing).replace("no-such", "X"));
    notFound(config);
    notFound(managed);
    assertThat(
            body(otherRoot.handle(request(Route.LIST_WAREHOUSES, Map.of(), null)))
                .get("warehouses"))
        .isEmpty();
    assertThat(
            body(otherRoot.handle(request(Route.LIST_PRINCIPALS, Map.of(), null)))
                .get("principals")
                .findValuesAsText("name"))
        .containsExactly("root");
  }

  @Test
  void clientCredentialsVerifyUntilRotatedOrDeleted() {
    Principals principals = new Principals(TestTwin.get().database());
    String name = "engine-" + NAMES.incrementAndGet();
    JsonNode created =
        body(
            expect(
                admin(
                    Route.CREATE_PRINCIPAL,
                    Map.of(),
                    "{\"principal\":{\"name\":\"" + name + "\"}}"),
                201));
    String clientId = created.at("/credentials/clientId").asText();
    String secret = created.at("/credentials/clientSecret").asText();
    PrincipalRef expected = new PrincipalRef(LocalTwin.REALM, name);

    assertThat(principals.verify(clientId, secret)).contains(expected);
    assertThat(principals.verify(clientId, secret + "x")).isEmpty();
    assertThat(principals.verify("unknown-" + clientId, secret)).isEmpty();

    JsonNode rotated =
        body(expect(admin(Route.ROTATE_CREDENTIALS, Map.of("principal", name), null), 200));
    String newSecret = rotated.at("/credentials/clientSecret").asText();
    assertThat(rotated.at("/credentials/clientId").asText()).isEqualTo(clientId);
    assertThat(principals.verify(clientId, secret)).isEmpty();
    assertThat(principals.verify(clientId, newSecret)).contains(expected);

    expect(admin(Route.DELETE_PRINCIPAL, Map.of("principal", name), null), 204);
    assertThat(principals.verify(clientId, newSecret)).isEmpty();
  }

  @Test
  void bootstrappingARealmAgainKeepsOrRotatesRootsCredential() {
    String realm = "boot-" + NAMES.incrementAndGet();
    RealmBootstrap bootstrap = new RealmBootstrap(TestTwin.get().database());
    Principals principals = new Principals(TestTwin.get().database());

    RealmBootstrap.Result created = bootstrap.bootstrap(realm, null);
    RealmBootstrap.Result again = bootstrap.bootstrap(realm, null);
    PrincipalCredential given = new PrincipalCredential(realm + "-root", "a-secret-of-ours");
    RealmBootstrap.Result rotated = bootstrap.bootstrap(realm, given);
    RealmBootstrap.Result same = bootstrap.bootstrap(realm, given);

    assertThat(created.outcome()).isEqualTo(RealmBootstrap.Outcome.CREATED);
    assertThat(created.generatedSecret()).hasSize(32);
    assertThat(again.outcome()).isEqualTo(RealmBootstrap.Outcome.UNCHANGED);
    assertThat(again.generatedSecret()).isNull();
    assertThat(again.clientId()).isEqualTo(created.clientId());
    assertThat(rotated.outcome()).isEqualTo(RealmBootstrap.Outcome.ROTATED);
    assertThat(same.outcome()).isEqualTo(RealmBootstrap.Outcome.UNCHANGED);
    assertThat(principals.verify(created.clientId(), created.generatedSecret())).isEmpty();
    assertThat(principals.verify(given.clientId(), given.clientSecret()))
        .contains(new PrincipalRef(realm, Principals.ROOT));
  }

  @Test
  void aCatalogAdminManagesItsWarehouseOnly() {
    String otherWarehouse = TestTwin.newWarehouse("access-other");
    String admin = "admin-" + NAMES.incrementAndGet();
    principalHolding(admin, "catalog_admin");
    CatalogApi catalogAdmin = apiAs(admin);

    expect(
        catalogAdmin.handle(
            request(
                Route.CREATE_CATALOG_ROLE,
                Map.of("warehouse", warehouse),
                role("catalogRole", "analysts"))),
        201);
    forbidden(
        catalogAdmin.handle(
            request(
                Route.CREATE_CATALOG_ROLE,
                Map.of("warehouse", otherWarehouse),
                role("catalogRole", "analysts"))));
    forbidden(catalogAdmin.handle(request(Route.LIST_PRINCIPALS, Map.of(), null)));
    forbidden(
        catalogAdmin.handle(
            request(Route.LIST_NAMESPACES, Map.of("prefix", otherWarehouse), null)));
    expect(
        catalogAdmin.handle(request(Route.LIST_NAMESPACES, Map.of("prefix", warehouse), null)),
        200);
  }

  @Test
  void managementRequestsThatCannotSucceedChangeNothing() {
    String name = "dup-" + NAMES.incrementAndGet();
    createPrincipal(name);
    int principals = principalNames().size();

    badRequest(admin(Route.CREATE_PRINCIPAL, Map.of(), "{not json"));
    badRequest(admin(Route.CREATE_PRINCIPAL, Map.of(), "{\"principal\":{}}"));
    badRequest(admin(Route.CREATE_PRINCIPAL, Map.of(), "{\"principal\":{\"name\":\"a/b\"}}"));
    expectError(
        admin(Route.CREATE_PRINCIPAL, Map.of(), "{\"principal\":{\"name\":\"" + name + "\"}}"),
        409,
        "AlreadyExistsException");
    notFound(admin(Route.GET_PRINCIPAL, Map.of("principal", "nobody"), null));
    badRequest(admin(Route.DELETE_PRINCIPAL, Map.of("principal", "root"), null));
    badRequest(admin(Route.DELETE_PRINCIPAL_ROLE, Map.of("principalRole", "service_admin"), null));
    badRequest(
        admin(
            Route.DELETE_CATALOG_ROLE,
            Map.of("warehouse", warehouse, "catalogRole", "catalog_admin"),
            null));
    expectError(
        admin(
            Route.CREATE_WAREHOUSE,
            Map.of(),
            "{\"name\":\"" + warehouse + "\",\"location\":\"s3://x/y\"}"),
        409,
        "AlreadyExistsException");
    badRequest(
        admin(Route.CREATE_WAREHOUSE, Map.of(), "{\"name\":\"nowhere\",\"location\":\"nowhere\"}"));
    notFound(
        admin(
            Route.ASSIGN_PRINCIPAL_ROLE,
            Map.of("principal", name),
            role("principalRole", "no-such-role")));

    String reader = principalWithCatalogRole();
    writerOfOrders();
    // a namespace privilege cannot be granted on a table, a catalog privilege only on the catalog
    badRequest(
        admin(
            Route.ADD_GRANT,
            grantPath(reader),
            grant("table", "ns1", "orders", "NAMESPACE_CREATE")));
    badRequest(
        admin(
            Route.ADD_GRANT,
            grantPath(reader),
            grant("namespace", "ns1", null, "CATALOG_MANAGE_ACCESS")));
    badRequest(
        admin(
            Route.ADD_GRANT,
            grantPath(reader),
            grant("catalog", null, null, "SERVICE_MANAGE_ACCESS")));
    badRequest(
        admin(Route.ADD_GRANT, grantPath(reader), grant("catalog", null, null, "TABLE_EAT")));
    expectError(
        admin(Route.ADD_GRANT, grantPath(reader), grant("namespace", "ns9", null, "TABLE_LIST")),
        404,
        "NoSuchNamespaceException");
    notFound(
        admin(
            Route.REVOKE_GRANT, grantPath(reader), grant("namespace", "ns1", null, "TABLE_LIST")));
    notFound(
        admin(
            Route.LIST_GRANTS,
            Map.of("warehouse", warehouse, "catalogRole", "no-such-role"),
            null));
    expectError(
        admin(Route.DELETE_WAREHOUSE, Map.of("warehouse", warehouse), null),
        409,
        "NamespaceNotEmptyException");

    assertThat(principalNames()).hasSize(principals + 1);
    assertThat(
            body(admin(Route.LIST_WAREHOUSES, Map.of(), null))
                .get("warehouses")
                .findValuesAsText("name"))
        .doesNotContain("nowhere");
    assertThat(body(admin(Route.LIST_GRANTS, grantPath(reader), null)).get("grants")).isEmpty();
    CatalogApi readerApi = apiAs(reader);
    forbidden(readerApi.handle(request(Route.LIST_PRINCIPALS, Map.of(), null)));
  }

  @Test
  void droppingATableDropsTheGrantsOnIt() {
    RESTCatalog writer = engine(Principals.ROOT);
    String reader = readerOfNewTable(writer, TableIdentifier.of(NS1, "orders"));
    RESTCatalog second = engine(reader);
    second.loadTable(TableIdentifier.of(NS1, "orders"));

    writer.dropTable(TableIdentifier.of(NS1, "orders"), false);
    writer.createTable(TableIdentifier.of(NS1, "orders"), SCHEMA);

    assertThat(body(admin(Route.LIST_GRANTS, grantPath(reader), null)).get("grants")).isEmpty();
    // neither for an engine that used the grant (its access was kept) nor for a new one
    assertThatThrownBy(() -> second.loadTable(TableIdentifier.of(NS1, "orders")))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> engine(reader).loadTable(TableIdentifier.of(NS1, "orders")))
        .isInstanceOf(ForbiddenException.class);
  }

  @Test
  void aGrantOnATableFollowsItsRename() {
    RESTCatalog writer = engine(Principals.ROOT);
    String reader = readerOfNewTable(writer, TableIdentifier.of(NS1, "orders"));
    RESTCatalog second = engine(reader);
    second.loadTable(TableIdentifier.of(NS1, "orders"));

    writer.renameTable(TableIdentifier.of(NS1, "orders"), TableIdentifier.of(NS1, "archived"));
    writer.createTable(TableIdentifier.of(NS1, "orders"), SCHEMA);

    assertThat(second.loadTable(TableIdentifier.of(NS1, "archived"))).isNotNull();
    assertThatThrownBy(() -> second.loadTable(TableIdentifier.of(NS1, "orders")))
        .isInstanceOf(ForbiddenException.class);
  }

  @Test
  void deletingTheCatalogRoleEndsItsAccess() {
    writerOfOrders();
    String reader = readerOf(NS1, "TABLE_READ_DATA");
    CatalogApi readerApi = apiAs(reader);
    expect(readerApi.handle(loadTable()), 200);

    expect(admin(Route.DELETE_CATALOG_ROLE, grantPath(reader), null), 204);

    forbidden(readerApi.handle(loadTable()));
  }

  /**
   * An environment keeps a caller's access and reads only the realm's access version while it
   * stands; any change to grants, from any environment, moves it.
   */
  @Test
  void accessIsKeptWhileNothingChangesAndReadAgainOnAnyChange() {
    RESTCatalog writer = engine(Principals.ROOT);
    writer.createNamespace(NS1);
    writer.createNamespace(NS2);
    String reader = readerOf(NS1, "TABLE_READ_DATA");
    Caller caller = Caller.withAllRoles(LocalTwin.REALM, reader);
    AccessQuery query = new AccessQuery(TestTwin.get().database());
    long warehouseId =
        new Warehouses(TestTwin.get().database()).get(LocalTwin.REALM, warehouse).id();
    Securable orders = Securable.table(TableIdentifier.of(NS1, "orders"));

    CallerAccess first = inRequest(() -> query.load(caller, warehouseId));
    CallerAccess kept = inRequest(() -> query.load(caller, warehouseId));
    // another principal's new grant moves the realm's version too: read again, still the same
    readerOf(NS2, "TABLE_READ_DATA");
    CallerAccess reread = inRequest(() -> query.load(caller, warehouseId));
    expect(
        admin(
            Route.REVOKE_GRANT,
            grantPath(reader),
            grant("namespace", "ns1", null, "TABLE_READ_DATA")),
        204);
    CallerAccess revoked = inRequest(() -> query.load(caller, warehouseId));

    assertThat(first.holds(Privilege.TABLE_READ_DATA, orders)).isTrue();
    assertThat(kept).isSameAs(first);
    assertThat(reread).isNotSameAs(first).isEqualTo(first);
    assertThat(revoked.holds(Privilege.TABLE_READ_DATA, orders)).isFalse();
  }

  private static <T> T inRequest(Supplier<T> work) {
    return new RequestScope(Deadline.none()).run(work);
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * A new principal holding a new principal role holding a new catalog role of the warehouse, which
   * holds {@code privilege} on {@code namespace}. Returns the principal's name; its roles are named
   * after it.
   */
  private String readerOf(Namespace namespace, String privilege) {
    String name = principalWithCatalogRole();
    expect(
        admin(
            Route.ADD_GRANT,
            grantPath(name),
            grant("namespace", namespace.level(0), null, privilege)),
        204);
    return name;
  }

  /**
   * A new principal whose catalog role holds TABLE_READ_DATA on {@code table} alone, which {@code
   * writer} creates, in a new namespace. Returns the principal's name.
   */
  private String readerOfNewTable(RESTCatalog writer, TableIdentifier table) {
    writer.createNamespace(table.namespace());
    writer.createTable(table, SCHEMA);
    String name = principalWithCatalogRole();
    expect(
        admin(
            Route.ADD_GRANT,
            grantPath(name),
            grant("table", table.namespace().level(0), table.name(), "TABLE_READ_DATA")),
        204);
    return name;
  }

  /** A principal with a principal role and a catalog role of the warehouse, without grants. */
  private String principalWithCatalogRole() {
    String name = "reader-" + NAMES.incrementAndGet();
    expect(
        admin(
            Route.CREATE_CATALOG_ROLE,
            Map.of("warehouse", warehouse),
            role("catalogRole", name + "-catalog")),
        201);
    principalHolding(name, name + "-catalog");
    return name;
  }

  /**
   * A new principal {@code name} with a principal role {@code <name>-role} of its own, which holds
   * the warehouse's catalog role {@code catalogRole}.
   */
  private void principalHolding(String name, String catalogRole) {
    createPrincipal(name);
    expect(
        admin(Route.CREATE_PRINCIPAL_ROLE, Map.of(), role("principalRole", name + "-role")), 201);
    expect(
        admin(
            Route.ASSIGN_PRINCIPAL_ROLE,
            Map.of("principal", name),
            role("principalRole", name + "-role")),
        204);
    expect(
        admin(
            Route.ASSIGN_CATALOG_ROLE,
            Map.of("principalRole", name + "-role", "warehouse", warehouse),
            role("catalogRole", catalogRole)),
        204);
  }

  private void createPrincipal(String name) {
    expect(
        admin(Route.CREATE_PRINCIPAL, Map.of(), "{\"principal\":{\"name\":\"" + name + "\"}}"),
        201);
  }

  private List<String> principalNames() {
    return body(admin(Route.LIST_PRINCIPALS, Map.of(), null))
        .get("principals")
        .findValuesAsText("name");
  }

  private Map<String, String> grantPath(String reader) {
    return Map.of("warehouse", warehouse, "catalogRole", reader + "-catalog");
  }

  private static String role(String kind, String name) {
    return "{\"" + kind + "\":{\"name\":\"" + name + "\"}}";
  }

  private static String grant(String type, String namespace, String name, String privilege) {
    StringBuilder grant = new StringBuilder("{\"grant\":{\"type\":\"" + type + "\"");
    if (namespace != null) {
      grant.append(",\"namespace\":[\"").append(namespace).append("\"]");
    }
    if (name != null) {
      grant.append(",\"").append(type).append("Name\":\"").append(name).append("\"");
    }
    return grant.append(",\"privilege\":\"").append(privilege).append("\"}}").toString();
  }

  /** Iceberg's REST client acting as {@code principal}, with all its roles. */
  private RESTCatalog engine(String principal) {
    TestEndpoint endpoint = TestEndpoint.start(new CatalogHandler(apiAs(principal)));
    closing.add(endpoint);
    RESTCatalog catalog = endpoint.client(warehouse);
    closing.add(catalog);
    return catalog;
  }

  /** Root's engine, after it created namespace ns1 and table ns1.orders. */
  private RESTCatalog writerOfOrders() {
    RESTCatalog writer = engine(Principals.ROOT);
    writer.createNamespace(NS1);
    writer.createTable(TableIdentifier.of(NS1, "orders"), SCHEMA);
    return writer;
  }

  /** A catalog whose requests {@code principal} sends, with all its roles. */
  private CatalogApi apiAs(String principal) {
    return api(Caller.withAllRoles(LocalTwin.REALM, principal));
  }

  private CatalogApi api(Caller caller) {
    return api(caller, false);
  }

  /** A catalog whose requests {@code caller} sends, honouring idempotency keys if asked to. */
  private CatalogApi api(Caller caller, boolean idempotencyKeys) {
    Authenticator authenticator = request -> caller;
    return CatalogApi.builder(
            new CatalogApi.Settings(
                LocalTwin.REALM,
                warehouse,
                idempotencyKeys ? CatalogApi.Settings.DEFAULT_IDEMPOTENCY_KEY_LIFETIME : null),
            TestTwin.get().database(),
            TestTwin.get().storage())
        .authenticator(authenticator)
        .build();
  }

  private Response admin(Route route, Map<String, String> path, String body) {
    return root.handle(request(route, path, body));
  }

  private static Request request(Route route, Map<String, String> path, String body) {
    return new Request(route, path, Map.of(), Map.of(), body);
  }

  private Request loadTable() {
    return new Request(
        Route.LOAD_TABLE,
        Map.of("prefix", warehouse, "namespace", "ns1", "table", "orders"),
        Map.of(),
        Map.of(),
        null);
  }

  private static void append(Table table) {
    DataFile file =
        DataFiles.builder(PartitionSpec.unpartitioned())
            .withPath(table.location() + "/data/" + NAMES.incrementAndGet() + ".parquet")
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(1024)
            .withRecordCount(1)
            .build();
    table.newAppend().appendFile(file).commit();
  }

  private static Response expect(Response response, int status) {
    assertThat(response.status()).as("%s", response.body()).isEqualTo(status);
    return response;
  }

  private static void expectError(Response response, int status, String type) {
    expect(response, status);
    assertThat(body(response).at("/error/type").asText()).isEqualTo(type);
    assertThat(body(response).at("/error/code").asInt()).isEqualTo(status);
  }

  private static void forbidden(Response response) {
    expectError(response, 403, "ForbiddenException");
  }

  private static void badRequest(Response response) {
    expectError(response, 400, "BadRequestException");
  }

  private static void notFound(Response response) {
    expectError(response, 404, "NotFoundException");
  }

  private static String message(Response response) {
    return body(response).at("/error/message").asText();
  }

  private static JsonNode body(Response response) {
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
