package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.contract.Route;
import dev.puddle.core.auth.RootCaller;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.rest.CatalogApi;
import dev.puddle.core.rest.NameLimits;
import dev.puddle.functions.CatalogHandler;
import dev.puddle.functions.HttpApiEvent;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.MetadataUpdateParser;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * Bad input, sent to every route of the route table as API Gateway events to the real handler over
 * the twin's PostgreSQL and S3: malformed JSON, wrong JSON types, empty, 20 MB and 10,000-deep
 * bodies, invalid UTF-8, control characters and NUL in bodies and path variables, names and
 * locations the catalog refuses, bad page tokens and sizes, bad snapshot ids, commits whose files
 * lie outside their table, and every method a path does not have. Each case asserts its status,
 * that an error is an Iceberg {@code ErrorResponse} whose code is that status, and that the
 * metastore is exactly as it was ({@link MetastoreDump}). Names Iceberg allows (unicode, SQL
 * metacharacters) instead round-trip: created, listed, loaded and dropped under the same name,
 * leaving the metastore as it was. Routes are read from {@link Route#values()}, so a new route is
 * covered without a change here.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String NAMESPACE = "ns";
  private static final String TABLE = "t";
  private static final String VIEW = "v";
  private static final String PRINCIPAL = "bad-input-principal";
  private static final String PRINCIPAL_ROLE = "bad_input_principal_role";
  private static final String CATALOG_ROLE = "bad_input_catalog_role";
  private static final String MISSING = "missing";

  /** A purge job id: the warehouse has no jobs, so every job route answers 404 for it. */
  private static final String JOB = "6f1c2a4e-0b7d-4c3e-9a51-2f8d7e6c5b4a";

  private static final List<String> METHODS =
      List.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");

  /** The routes with a method that may carry a body which ignore it. */
  private static final Set<Route> NO_BODY =
      Set.of(Route.ROTATE_CREDENTIALS, Route.REDRIVE_PURGE_JOB);

  private static final String SCHEMA =
      "{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
          + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}";

  /** Every field any route reads, each with a type it does not take. */
  private static final String WRONG_TYPES =
      "{\"name\":7,\"namespace\":\"x\",\"location\":[],\"properties\":\"p\",\"schema\":true,"
          + "\"spec\":1,\"write-order\":\"w\",\"stage-create\":\"yes\",\"metadata-location\":{},"
          + "\"overwrite\":\"no\",\"identifier\":5,\"requirements\":{},\"updates\":\"u\","
          + "\"removals\":{},\"source\":[],\"destination\":2,\"report-type\":1,\"report\":3,"
          + "\"table-changes\":{},\"view-version\":\"v\",\"principal\":\"x\",\"principalRole\":3,"
          + "\"catalogRole\":[],\"grant\":\"g\",\"snapshot-id\":\"s\",\"plan-task\":1}";

  private static final String DEEP = "[".repeat(10_000) + "]".repeat(10_000);

  private static final String TWENTY_MB = "{\"x\":\"" + "a".repeat(20 * 1024 * 1024) + "\"}";

  /** Bodies each route that reads one must refuse with 400. */
  private static final Map<String, String> BAD_BODIES =
      orderedMap(
          "malformed JSON", "{\"namespace\": [\"a\",",
          "wrong JSON types", WRONG_TYPES,
          "empty body", "",
          "10,000-deep nesting", DEEP,
          "JSON array", "[1,2,3]",
          "JSON null", "null",
          "a JSON string", "\"namespace\"");

  /** Bodies of the routes that create a namespace, table or view which must get a 400. */
  private static final Map<String, String> BAD_NAME_BODIES =
      orderedMap(
          "NUL in names", "{\"namespace\":[\"a\\u0000b\"],\"name\":\"t\\u0000\"}",
          "control characters in names", "{\"namespace\":[\"a\\u0001b\"],\"name\":\"t\\u0007\"}");

  private static final Set<Route> CREATES =
      Set.of(
          Route.CREATE_NAMESPACE,
          Route.CREATE_TABLE,
          Route.REGISTER_TABLE,
          Route.CREATE_VIEW,
          Route.REGISTER_VIEW);

  /** Path variables that are not names of anything, some of which cannot be names at all. */
  private static final List<String> BAD_VARIABLES =
      List.of("a\u0000b", "a\u0001b", "x'; DROP TABLE namespace; --", "%00", "\uFFFD\uD83E\uDD86");

  /** Names the catalog refuses to create, with why. */
  private static final Map<String, String> REFUSED_NAMES =
      orderedMap(
          "NUL", "a\u0000b",
          "a control character", "a\u0001b",
          "DEL", "a\u007fb",
          "the unit separator", "a\u001fb",
          "a slash", "a/b",
          "a plus", "a+b",
          "a dot", ".",
          "two dots", "..",
          "nothing", "",
          "256 bytes", "x".repeat(NameLimits.MAX_NAME_BYTES + 1),
          "258 bytes of CJK", "名".repeat(86),
          "10,000 characters", "n".repeat(10_000));

  /** Names Iceberg allows: each must round-trip exactly. */
  private static final List<String> ALLOWED_NAMES =
      List.of(
          "Ünïcødé 名前 🦆",
          "x'; DROP TABLE namespace; --",
          "a%b_c\\d",
          "quote\"d `back` $1 OR 1=1",
          "<script>&amp;",
          "ä".repeat(60));

  private String warehouse;
  private CatalogHandler handler;

  /** The change feed's table: a change adds one row to it. */
  private static final String EVENTS = "catalog_event";

  private MetastoreDump dump;
  private String tableMetadataLocation;
  private String viewMetadataLocation;
  private String tableLocation;

  /**
   * A warehouse, the metastore that holds it, and connections to that same metastore through which
   * the suite compares its every table (they may reach it another way than the catalog does).
   */
  protected record Target(String warehouse, Database database, Database dumped) {}

  private TestTwin.Metastore separate;

  /** The twin the suite runs against; a subclass runs it in the other metastore access mode. */
  protected TestTwin twin() {
    return TestTwin.of(TestTwin.Mode.JDBC);
  }

  /**
   * A database of its own in the JDBC twin's PostgreSQL, so that what other suites stored in the
   * shared one (tables of many megabytes) costs the dumps nothing.
   */
  protected Target target() {
    separate = TestTwin.separateMetastore("bad-input");
    return new Target("bad-input", separate.database(), separate.database());
  }

  @AfterAll
  void closeSeparateMetastore() {
    if (separate != null) {
      separate.close();
    }
  }

  @BeforeAll
  void setUp() {
    Target target = target();
    warehouse = target.warehouse();
    handler =
        new CatalogHandler(
            CatalogApi.builder(
                    new CatalogApi.Settings(LocalTwin.REALM, warehouse),
                    target.database(),
                    twin().local().storage())
                .authenticator(RootCaller.of(LocalTwin.REALM))
                // so that a request to sign reaches the parsing of its body
                .requestSigner(twin().local().requestSigner())
                .build());
    dump = MetastoreDump.of(target.dumped());
    succeed(Route.CREATE_NAMESPACE, existing(), "{\"namespace\":[\"" + NAMESPACE + "\"]}");
    JsonNode table =
        succeed(
                Route.CREATE_TABLE,
                existing(),
                "{\"name\":\"" + TABLE + "\",\"schema\":" + SCHEMA + "}")
            .json();
    tableMetadataLocation = table.get("metadata-location").asText();
    tableLocation = table.at("/metadata/location").asText();
    viewMetadataLocation =
        succeed(Route.CREATE_VIEW, existing(), viewBody(VIEW, null))
            .json()
            .get("metadata-location")
            .asText();
    succeed(Route.CREATE_PRINCIPAL, existing(), "{\"principal\":{\"name\":\"" + PRINCIPAL + "\"}}");
    succeed(
        Route.CREATE_PRINCIPAL_ROLE,
        existing(),
        "{\"principalRole\":{\"name\":\"" + PRINCIPAL_ROLE + "\"}}");
    succeed(
        Route.CREATE_CATALOG_ROLE,
        existing(),
        "{\"catalogRole\":{\"name\":\"" + CATALOG_ROLE + "\"}}");
  }

  /** One case: a request and what it must get. */
  private record Case(String name, HttpApiEvent event, Expect expect) {}

  /**
   * What a case must get: one of {@code statuses} (the status of the same request without its body,
   * if {@code sameAsWithoutBody}), and for a 405 this {@code Allow}.
   */
  private record Expect(Set<Integer> statuses, boolean sameAsWithoutBody, String allow) {
    static Expect status(Integer... statuses) {
      return new Expect(Set.of(statuses), false, null);
    }

    static Expect asWithoutBody() {
      return new Expect(Set.of(), true, null);
    }
  }

  @TestFactory
  Stream<DynamicTest> everyRouteAnswersBadInputWithAnErrorAndChangesNothing() {
    List<Case> cases = new ArrayList<>();
    Set<String> paths = new HashSet<>();
    for (Route route : Route.values()) {
      if (paths.add(route.path())) {
        cases.addAll(wrongMethods(route));
      }
      cases.addAll(badBodies(route));
      cases.addAll(badVariables(route));
    }
    cases.addAll(refusedNames());
    cases.addAll(badPaging());
    cases.addAll(badSnapshots());
    cases.addAll(badLocations());
    cases.addAll(filesOutsideTheTable());
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> run(c)));
  }

  @TestFactory
  Stream<DynamicTest> namesIcebergAllowsRoundTripExactly() {
    return ALLOWED_NAMES.stream()
        .map(name -> DynamicTest.dynamicTest(printable(name), () -> roundTrip(name)));
  }

  private List<Case> wrongMethods(Route route) {
    Map<String, String> variables = bind(route, existing());
    String path = path(route, variables);
    SortedSet<String> allowed = Route.allowedMethods(path);
    List<Case> cases = new ArrayList<>();
    for (String method : METHODS) {
      if (!allowed.contains(method)) {
        cases.add(
            new Case(
                method + " " + route.path(),
                event(method, "$default", path, Map.of(), Map.of(), null, false),
                new Expect(Set.of(405), false, String.join(", ", allowed))));
      }
    }
    return cases;
  }

  private List<Case> badBodies(Route route) {
    boolean readsBody =
        (route.method().equals("POST") || route.method().equals("PUT")) && !NO_BODY.contains(route);
    // a route that reads its body gets one bound to what exists, so that it reaches the body;
    // the others to what does not, so that ignoring the body changes nothing
    Map<String, String> variables = bind(route, readsBody ? existing() : missing());
    List<Case> cases = new ArrayList<>();
    Map<String, String> bodies = new LinkedHashMap<>(BAD_BODIES);
    if (CREATES.contains(route)) {
      bodies.putAll(BAD_NAME_BODIES);
    }
    bodies.forEach(
        (what, body) ->
            cases.add(
                new Case(
                    route.operationId() + ": " + what,
                    event(route, variables, Map.of(), body, false),
                    !readsBody
                        ? Expect.asWithoutBody()
                        : route == Route.GET_TOKEN
                            // this handler issues no tokens: 401 whatever the form
                            ? Expect.status(400, 401)
                            : Expect.status(400))));
    cases.add(
        new Case(
            route.operationId() + ": 20 MB body",
            event(route, variables, Map.of(), TWENTY_MB, false),
            Expect.status(413)));
    cases.add(
        new Case(
            route.operationId() + ": invalid UTF-8",
            event(
                route,
                variables,
                Map.of(),
                Base64.getEncoder().encodeToString(new byte[] {'{', (byte) 0xff, (byte) 0xfe, '}'}),
                true),
            Expect.status(400)));
    return cases;
  }

  private List<Case> badVariables(Route route) {
    List<Case> cases = new ArrayList<>();
    for (String variable : List.of("namespace", "table", "view")) {
      if (!route.path().contains("{" + variable + "}")) {
        continue;
      }
      for (String value : BAD_VARIABLES) {
        Map<String, String> variables = new LinkedHashMap<>(bind(route, missing()));
        variables.put(variable, value);
        cases.add(
            new Case(
                route.operationId() + ": " + variable + " " + printable(value),
                event(route, variables, Map.of(), null, false),
                Expect.status(400, 404)));
      }
    }
    return cases;
  }

  private List<Case> refusedNames() {
    List<Case> cases = new ArrayList<>();
    Map<String, String> variables = existing();
    REFUSED_NAMES.forEach(
        (why, name) -> {
          String quoted = quote(name);
          cases.add(
              refused(
                  Route.CREATE_NAMESPACE,
                  "namespace with " + why,
                  "{\"namespace\":[" + quoted + "]}"));
          cases.add(
              refused(
                  Route.CREATE_NAMESPACE,
                  "nested namespace with " + why,
                  "{\"namespace\":[\"fresh\"," + quoted + "]}"));
          cases.add(
              refused(
                  Route.CREATE_TABLE,
                  "table with " + why,
                  "{\"name\":" + quoted + ",\"schema\":" + SCHEMA + "}"));
          cases.add(
              refused(
                  Route.CREATE_TABLE,
                  "staged table with " + why,
                  "{\"name\":" + quoted + ",\"schema\":" + SCHEMA + ",\"stage-create\":true}"));
          cases.add(refused(Route.CREATE_VIEW, "view with " + why, viewBody(name, null)));
          cases.add(
              refused(
                  Route.REGISTER_TABLE,
                  "registered table with " + why,
                  "{\"name\":"
                      + quoted
                      + ",\"metadata-location\":"
                      + quote(tableMetadataLocation)
                      + "}"));
          cases.add(
              refused(
                  Route.REGISTER_VIEW,
                  "registered view with " + why,
                  "{\"name\":"
                      + quoted
                      + ",\"metadata-location\":"
                      + quote(viewMetadataLocation)
                      + "}"));
          cases.add(
              refused(
                  Route.RENAME_TABLE,
                  "table renamed to " + why,
                  rename(
                      TABLE, "{\"namespace\":[\"" + NAMESPACE + "\"],\"name\":" + quoted + "}")));
          cases.add(
              refused(
                  Route.RENAME_VIEW,
                  "view renamed to " + why,
                  rename(VIEW, "{\"namespace\":[\"" + NAMESPACE + "\"],\"name\":" + quoted + "}")));
        });
    String seventeenLevels = "[\"l\"" + ",\"l\"".repeat(NameLimits.MAX_LEVELS) + "]";
    cases.add(
        refused(Route.CREATE_NAMESPACE, "17 levels", "{\"namespace\":" + seventeenLevels + "}"));
    cases.add(
        refused(
            Route.RENAME_TABLE,
            "table renamed into 17 levels",
            rename(TABLE, "{\"namespace\":" + seventeenLevels + ",\"name\":\"t\"}")));
    String level = quote("p".repeat(200));
    cases.add(
        refused(
            Route.CREATE_NAMESPACE,
            "namespace over the encoded path budget",
            "{\"namespace\":[" + level + "," + level + "," + level + "," + level + "]}"));
    cases.add(
        refused(
            Route.CREATE_NAMESPACE,
            "NUL in a property key",
            "{\"namespace\":[\"fresh\"],\"properties\":{\"k\\u0000\":\"v\"}}"));
    cases.add(
        refused(
            Route.CREATE_NAMESPACE,
            "NUL in a property value",
            "{\"namespace\":[\"fresh\"],\"properties\":{\"k\":\"v\\u0000\"}}"));
    cases.add(
        refused(
            Route.UPDATE_NAMESPACE_PROPERTIES,
            "NUL in an updated property",
            "{\"updates\":{\"k\\u0000\":\"v\"},\"removals\":[]}"));
    cases.add(
        refused(
            Route.CREATE_WAREHOUSE,
            "warehouse with NUL",
            "{\"name\":\"w\\u0000\",\"location\":\"s3://warehouse/nul\"}"));
    cases.add(
        refused(
            Route.CREATE_PRINCIPAL,
            "principal with NUL",
            "{\"principal\":{\"name\":\"p\\u0000\"}}"));
    return cases;
  }

  private List<Case> badPaging() {
    List<Case> cases = new ArrayList<>();
    for (Route route : Route.values()) {
      if (!route.method().equals("GET") || !route.operationId().startsWith("list")) {
        continue;
      }
      if (!route.path().startsWith("/v1/")) {
        continue; // the management API does not page
      }
      Map<String, String> variables = bind(route, existing());
      // a token is the base64 of the name a page starts after: one that does not decode is a
      // 400, one that does (though no page gave it) a position like any other
      for (String token : List.of("%%%", "\u0000", "a", "abcde", "====", "ab==cd")) {
        cases.add(
            new Case(
                route.operationId() + ": page token " + printable(token),
                event(route, variables, Map.of("pageToken", token), null, false),
                Expect.status(400)));
      }
      cases.add(
          new Case(
              route.operationId() + ": page token no page gave",
              event(route, variables, Map.of("pageToken", "x".repeat(5000)), null, false),
              Expect.status(200)));
      for (String size : List.of("-1", "0", "abc", "99999999999", "1.5")) {
        cases.add(
            new Case(
                route.operationId() + ": page size " + size,
                event(route, variables, Map.of("pageSize", size), null, false),
                Expect.status(400)));
      }
    }
    return cases;
  }

  private List<Case> badSnapshots() {
    List<Case> cases = new ArrayList<>();
    Map<String, String> variables = existing();
    cases.add(
        new Case(
            "loadTable: snapshots mode",
            event(Route.LOAD_TABLE, variables, Map.of("snapshots", "bogus"), null, false),
            Expect.status(400)));
    Map<String, String> updates =
        orderedMap(
            "ref to an unknown snapshot",
            "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\","
                + "\"snapshot-id\":123456789}",
            "snapshot id that is text",
            "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\","
                + "\"snapshot-id\":\"abc\"}",
            "snapshot id beyond a long",
            "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\","
                + "\"snapshot-id\":99999999999999999999999}",
            "removal of snapshots that are text",
            "{\"action\":\"remove-snapshots\",\"snapshot-ids\":[\"x\"]}",
            "a ref name that is a number",
            "{\"action\":\"remove-snapshot-ref\",\"ref-name\":7}");
    updates.forEach(
        (what, update) -> {
          cases.add(
              new Case(
                  "updateTable: " + what,
                  event(Route.UPDATE_TABLE, variables, Map.of(), commit(update), false),
                  Expect.status(400)));
          cases.add(
              new Case(
                  "commitTransaction: " + what,
                  event(Route.COMMIT_TRANSACTION, variables, Map.of(), transaction(update), false),
                  Expect.status(400)));
        });
    cases.add(
        new Case(
            "updateTable: requirement on a snapshot id that is text",
            event(
                Route.UPDATE_TABLE,
                variables,
                Map.of(),
                "{\"requirements\":[{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\","
                    + "\"snapshot-id\":\"abc\"}],\"updates\":[]}",
                false),
            Expect.status(400)));
    return cases;
  }

  private List<Case> badLocations() {
    String base = "s3://" + LocalTwin.BUCKET + "/" + warehouse;
    Map<String, String> locations =
        orderedMap(
            "a .. segment", base + "/ns/../../escape",
            "a . segment", base + "/ns/./t",
            "an empty segment", base + "//t",
            "another bucket", "s3://another-bucket/" + warehouse + "/t",
            "another scheme", "file:///tmp/" + warehouse + "/t",
            "s3a", "s3a://" + LocalTwin.BUCKET + "/" + warehouse + "/t",
            "outside the warehouse", "s3://" + LocalTwin.BUCKET + "/elsewhere/t",
            "a control character", base + "/t\u0001x");
    List<Case> cases = new ArrayList<>();
    locations.forEach(
        (what, location) -> {
          String quoted = quote(location);
          cases.add(
              refused(
                  Route.CREATE_TABLE,
                  "table location with " + what,
                  "{\"name\":\"located\",\"schema\":" + SCHEMA + ",\"location\":" + quoted + "}"));
          cases.add(
              refused(
                  Route.CREATE_TABLE,
                  "staged table location with " + what,
                  "{\"name\":\"located\",\"schema\":"
                      + SCHEMA
                      + ",\"location\":"
                      + quoted
                      + ",\"stage-create\":true}"));
          for (String property : List.of("write.data.path", "write.metadata.path")) {
            cases.add(
                refused(
                    Route.CREATE_TABLE,
                    property + " with " + what,
                    "{\"name\":\"located\",\"schema\":"
                        + SCHEMA
                        + ",\"properties\":{\""
                        + property
                        + "\":"
                        + quoted
                        + "}}"));
            cases.add(
                refused(
                    Route.UPDATE_TABLE,
                    "committed " + property + " with " + what,
                    commit(
                        "{\"action\":\"set-properties\",\"updates\":{\""
                            + property
                            + "\":"
                            + quoted
                            + "}}")));
          }
          cases.add(
              refused(Route.CREATE_VIEW, "view location with " + what, viewBody("v2", location)));
          cases.add(
              refused(
                  Route.UPDATE_TABLE,
                  "committed location with " + what,
                  commit("{\"action\":\"set-location\",\"location\":" + quoted + "}")));
          // a registered object may lie outside the warehouse, in its bucket: then the file is
          // read, and there is none
          int registered = what.equals("outside the warehouse") ? 404 : 400;
          for (Route register : List.of(Route.REGISTER_TABLE, Route.REGISTER_VIEW)) {
            cases.add(
                new Case(
                    register.operationId() + ": metadata with " + what,
                    event(
                        register,
                        existing(),
                        Map.of(),
                        "{\"name\":\"registered\",\"metadata-location\":"
                            + quote(location + "/metadata/00000-x.metadata.json")
                            + "}",
                        false),
                    Expect.status(registered)));
          }
        });
    return cases;
  }

  private List<Case> filesOutsideTheTable() {
    String elsewhere = "s3://" + LocalTwin.BUCKET + "/" + warehouse + "/ns/other-table";
    Map<String, String> files =
        orderedMap(
            "in another bucket",
            "s3://another-bucket/snap-1.avro",
            "elsewhere in the warehouse",
            elsewhere + "/metadata/snap-1.avro",
            "escaping with ..",
            tableLocation + "/metadata/../../other-table/snap-1.avro",
            "of another scheme",
            "file:///tmp/snap-1.avro");
    String inside = addSnapshot(tableLocation + "/metadata/snap-1.avro");
    List<Case> cases = new ArrayList<>();
    files.forEach(
        (where, file) -> {
          String snapshot = addSnapshot(file);
          cases.add(refused(Route.UPDATE_TABLE, "manifest list " + where, commit(snapshot)));
          cases.add(
              refused(Route.COMMIT_TRANSACTION, "manifest list " + where, transaction(snapshot)));
          cases.add(
              refused(
                  Route.UPDATE_TABLE,
                  "statistics file " + where,
                  "{\"requirements\":[],\"updates\":["
                      + inside
                      + ","
                      + "{\"action\":\"set-statistics\",\"snapshot-id\":1,\"statistics\":"
                      + "{\"snapshot-id\":1,\"statistics-path\":"
                      + quote(file)
                      + ",\"file-size-in-bytes\":1,\"file-footer-size-in-bytes\":1,"
                      + "\"blob-metadata\":[]}}]}"));
          cases.add(
              refused(
                  Route.UPDATE_TABLE,
                  "partition statistics file " + where,
                  "{\"requirements\":[],\"updates\":["
                      + inside
                      + ","
                      + "{\"action\":\"set-partition-statistics\",\"partition-statistics\":"
                      + "{\"snapshot-id\":1,\"statistics-path\":"
                      + quote(file)
                      + ",\"file-size-in-bytes\":1}}]}"));
          cases.add(
              new Case(
                  "staged create: manifest list " + where,
                  event(
                      Route.UPDATE_TABLE,
                      Map.of("prefix", warehouse, "namespace", NAMESPACE, "table", "staged"),
                      Map.of(),
                      stagedCreate("staged", file),
                      false),
                  Expect.status(400)));
        });
    return cases;
  }

  /** A snapshot of the fixture table whose manifest list is {@code manifestList}. */
  private static String addSnapshot(String manifestList) {
    return "{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":1,\"timestamp-ms\":1,"
        + "\"sequence-number\":1,\"summary\":{\"operation\":\"append\"},\"manifest-list\":"
        + quote(manifestList)
        + ",\"schema-id\":0}}";
  }

  /** The commit a client sends for a staged create of {@code name}, and a snapshot. */
  private String stagedCreate(String name, String manifestList) {
    Schema schema = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    TableMetadata metadata =
        TableMetadata.newTableMetadata(
            schema,
            PartitionSpec.unpartitioned(),
            SortOrder.unsorted(),
            "s3://" + LocalTwin.BUCKET + "/" + warehouse + "/" + NAMESPACE + "/" + name,
            Map.of());
    StringBuilder updates = new StringBuilder("[");
    for (MetadataUpdate update : metadata.changes()) {
      updates.append(MetadataUpdateParser.toJson(update)).append(',');
    }
    updates.append(addSnapshot(manifestList)).append(']');
    return "{\"requirements\":[{\"type\":\"assert-create\"}],\"updates\":" + updates + "}";
  }

  private Case refused(Route route, String what, String body) {
    return new Case(
        route.operationId() + ": " + printable(what),
        event(route, existing(), Map.of(), body, false),
        Expect.status(400));
  }

  private void run(Case c) {
    String before = dump.take();
    int expected;
    if (c.expect().sameAsWithoutBody()) {
      HttpApiEvent withoutBody = withoutBody(c.event());
      expected = Invocations.invoke(handler, withoutBody, null).status();
      assertThat(dump.take()).as("without its body").isEqualTo(before);
    } else {
      expected = -1;
    }
    Invocations.Answer answer = Invocations.invoke(handler, c.event(), null);

    if (expected >= 0) {
      assertThat(answer.status()).as("%s: %s", c.name(), answer.body()).isEqualTo(expected);
    } else {
      assertThat(c.expect().statuses())
          .as("%s: %s", c.name(), answer.body())
          .contains(answer.status());
    }
    if (answer.status() >= 400) {
      assertError(c, answer);
    }
    if (c.expect().allow() != null) {
      assertThat(answer.headers()).containsEntry("allow", c.expect().allow());
    }
    assertThat(dump.take()).as("the metastore after %s", c.name()).isEqualTo(before);
  }

  private static void assertError(Case c, Invocations.Answer answer) {
    if (c.event().requestContext().http().method().equals("HEAD")
        && (answer.body() == null || answer.body().isEmpty())) {
      return; // an answer to HEAD has no body; one refused unread may have one, which HTTP drops
    }
    JsonNode body = answer.json();
    if (c.event().routeKey().equals(Route.GET_TOKEN.routeKey()) && body.path("error").isTextual()) {
      return; // the token endpoint answers OAuth 2 errors (RFC 6749 5.2), as clients expect
    }
    JsonNode error = body.get("error");
    assertThat(error).as(answer.body()).isNotNull();
    assertThat(error.get("code").asInt()).isEqualTo(answer.status());
    assertThat(error.get("type").asText()).isNotBlank();
    assertThat(error.get("message").asText())
        .isNotBlank()
        .doesNotContain("\tat ", "SELECT ", "INSERT ", "UPDATE ", "Exception:", "secret");
    assertThat(error.get("message").asText().length()).isLessThan(6000);
  }

  private void roundTrip(String name) {
    String before = dump.take();
    String key = name + " \u0001key";
    ObjectNode create = JSON.createObjectNode();
    create.putArray("namespace").add(name);
    create.putObject("properties").put(key, name);
    succeed(Route.CREATE_NAMESPACE, existing(), create.toString());

    Map<String, String> inNamespace = new LinkedHashMap<>(existing());
    inNamespace.put(
        "namespace", gatewayDecoded(RESTUtil.encodeNamespace(Namespace.of(name), "%1F")));
    JsonNode listed = succeed(Route.LIST_NAMESPACES, existing(), null).json().get("namespaces");
    assertThat(listed).contains(JSON.createArrayNode().add(name));
    JsonNode loaded = succeed(Route.LOAD_NAMESPACE, inNamespace, null).json();
    assertThat(loaded.at("/properties").get(key).asText()).isEqualTo(name);

    ObjectNode table = JSON.createObjectNode().put("name", name);
    table.set("schema", read(SCHEMA));
    succeed(Route.CREATE_TABLE, inNamespace, table.toString());
    String viewName = name + " view";
    succeed(Route.CREATE_VIEW, inNamespace, viewBody(viewName, null, name));

    JsonNode tables = succeed(Route.LIST_TABLES, inNamespace, null).json().get("identifiers");
    assertThat(tables).containsExactly(identifier(name, name));
    JsonNode views = succeed(Route.LIST_VIEWS, inNamespace, null).json().get("identifiers");
    assertThat(views).containsExactly(identifier(name, viewName));

    Map<String, String> theTable = new LinkedHashMap<>(inNamespace);
    theTable.put("table", gatewayDecoded(RESTUtil.encodeString(name)));
    Map<String, String> theView = new LinkedHashMap<>(inNamespace);
    theView.put("view", gatewayDecoded(RESTUtil.encodeString(viewName)));
    assertThat(succeed(Route.LOAD_TABLE, theTable, null).json().at("/metadata/location").asText())
        .contains(name);
    succeed(Route.LOAD_VIEW, theView, null);

    assertThat(send(Route.DROP_VIEW, theView, null).status()).isEqualTo(204);
    assertThat(send(Route.DROP_TABLE, theTable, null).status()).isEqualTo(204);
    assertThat(send(Route.DROP_NAMESPACE, inNamespace, null).status()).isEqualTo(204);
    // all is as before, but the change feed, which has one event more per change
    String after = dump.take();
    assertThat(without(after, EVENTS))
        .as("the metastore once all is dropped")
        .isEqualTo(without(before, EVENTS));
    assertThat(rows(after, EVENTS))
        .as("events of the six changes")
        .isEqualTo(rows(before, EVENTS) + 6);
  }

  /** A dump's lines but that of {@code table}. */
  private static String without(String dump, String table) {
    return dump.lines()
        .filter(line -> !line.startsWith(table + " "))
        .collect(Collectors.joining("\n"));
  }

  /** The rows of {@code table} that a dump counted. */
  private static long rows(String dump, String table) {
    return dump.lines()
        .filter(line -> line.startsWith(table + " "))
        .mapToLong(line -> Long.parseLong(line.split(" ")[1]))
        .findFirst()
        .orElseThrow();
  }

  private static JsonNode identifier(String namespace, String name) {
    ObjectNode identifier = JSON.createObjectNode();
    identifier.putArray("namespace").add(namespace);
    identifier.put("name", name);
    return identifier;
  }

  private Invocations.Answer succeed(Route route, Map<String, String> variables, String body) {
    Invocations.Answer answer = send(route, variables, body);
    assertThat(answer.status())
        .as("%s: %s", route.operationId(), answer.body())
        .isBetween(200, 299);
    return answer;
  }

  private Invocations.Answer send(Route route, Map<String, String> variables, String body) {
    return Invocations.invoke(
        handler, event(route, bind(route, variables), Map.of(), body, false), null);
  }

  /** The fixture's names, for every path variable a route may have. */
  private Map<String, String> existing() {
    return orderedMap(
        "prefix", warehouse,
        "warehouse", warehouse,
        "namespace", NAMESPACE,
        "table", TABLE,
        "view", VIEW,
        "principal", PRINCIPAL,
        "principalRole", PRINCIPAL_ROLE,
        "catalogRole", CATALOG_ROLE,
        // names no dropped object: an undrop's bad body is refused before it is looked up
        "object", "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
        "job", JOB,
        // no plan is kept for a snapshotless table's scan: any plan id is unknown
        "plan-id", "9c7e2f4a-5d3b-4c1e-8f6a-2b0d9e8c7a61");
  }

  /** Names of nothing, for every path variable but the prefix. */
  private Map<String, String> missing() {
    Map<String, String> names = new LinkedHashMap<>();
    existing().keySet().forEach(variable -> names.put(variable, MISSING));
    names.put("prefix", warehouse);
    return names;
  }

  /** The variables of {@code route}'s path, from {@code names}. */
  private static Map<String, String> bind(Route route, Map<String, String> names) {
    Map<String, String> variables = new LinkedHashMap<>();
    names.forEach(
        (variable, value) -> {
          if (route.path().contains("{" + variable + "}")) {
            variables.put(variable, value);
          }
        });
    return variables;
  }

  private static String path(Route route, Map<String, String> variables) {
    String path = route.path();
    for (Map.Entry<String, String> variable : variables.entrySet()) {
      path = path.replace("{" + variable.getKey() + "}", variable.getValue());
    }
    return path;
  }

  private static HttpApiEvent event(
      Route route,
      Map<String, String> variables,
      Map<String, String> query,
      String body,
      boolean base64) {
    return event(
        route.method(), route.routeKey(), path(route, variables), variables, query, body, base64);
  }

  /** An event as API Gateway delivers it: path and query decoded. */
  private static HttpApiEvent event(
      String method,
      String routeKey,
      String path,
      Map<String, String> variables,
      Map<String, String> query,
      String body,
      boolean base64) {
    return new HttpApiEvent(
        "2.0",
        routeKey,
        path,
        "",
        null,
        Map.of("content-type", "application/json"),
        query.isEmpty() ? null : query,
        variables.isEmpty() ? null : variables,
        new HttpApiEvent.RequestContext(
            "000000000000",
            "test",
            "localhost",
            new HttpApiEvent.Http(method, path, "HTTP/1.1", "127.0.0.1", "test"),
            "bad-input-" + System.nanoTime(),
            routeKey,
            "$default",
            "01/Jan/2026:00:00:00 +0000",
            System.currentTimeMillis()),
        body,
        base64);
  }

  private static HttpApiEvent withoutBody(HttpApiEvent event) {
    return new HttpApiEvent(
        event.version(),
        event.routeKey(),
        event.rawPath(),
        event.rawQueryString(),
        event.cookies(),
        event.headers(),
        event.queryStringParameters(),
        event.pathParameters(),
        event.requestContext(),
        null,
        false);
  }

  private String commit(String update) {
    return "{\"requirements\":[],\"updates\":[" + update + "]}";
  }

  private String transaction(String update) {
    return "{\"table-changes\":[{\"identifier\":{\"namespace\":[\""
        + NAMESPACE
        + "\"],\"name\":\""
        + TABLE
        + "\"},\"requirements\":[],\"updates\":["
        + update
        + "]}]}";
  }

  private static String rename(String from, String destination) {
    return "{\"source\":{\"namespace\":[\""
        + NAMESPACE
        + "\"],\"name\":\""
        + from
        + "\"},"
        + "\"destination\":"
        + destination
        + "}";
  }

  private static String viewBody(String name, String location) {
    return viewBody(name, location, NAMESPACE);
  }

  private static String viewBody(String name, String location, String namespace) {
    ObjectNode view = JSON.createObjectNode().put("name", name);
    if (location != null) {
      view.put("location", location);
    }
    view.set("schema", read(SCHEMA));
    ObjectNode version = view.putObject("view-version");
    version.put("version-id", 1).put("timestamp-ms", 1).put("schema-id", 0);
    version.putObject("summary").put("engine-name", "test");
    ArrayNode representations = version.putArray("representations");
    representations.addObject().put("type", "sql").put("sql", "SELECT 1").put("dialect", "spark");
    version.putArray("default-namespace").add(namespace);
    view.putObject("properties");
    return view.toString();
  }

  /** A JSON string literal. */
  private static String quote(String text) {
    return JSON.getNodeFactory().textNode(text).toString();
  }

  private static JsonNode read(String json) {
    try {
      return JSON.readTree(json);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** What API Gateway makes of a path part a client encoded: percent-decoded, {@code +} kept. */
  private static String gatewayDecoded(String encoded) {
    return URLDecoder.decode(encoded.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  /** A value as a test name shows it: control characters escaped, long ones cut. */
  private static String printable(String value) {
    StringBuilder out = new StringBuilder();
    for (char c : value.toCharArray()) {
      out.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
    }
    return out.length() > 40
        ? out.substring(0, 40) + "... (" + value.length() + " chars)"
        : out.toString();
  }

  private static Map<String, String> orderedMap(String... pairs) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return map;
  }
}
