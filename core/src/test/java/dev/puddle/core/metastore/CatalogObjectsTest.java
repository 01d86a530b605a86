package dev.puddle.core.metastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.auth.Caller;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects.Swap;
import dev.puddle.core.metastore.access.AccessQuery;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Table and view rows: one name space for both kinds, listings page by name, commits move the
 * pointer only from the version they read, drops record their purge, and the three reads of "the
 * row, without its metadata if the caller knows it" agree.
 */
@ExtendWith(FreshDatabase.class)
class CatalogObjectsTest {
  private static final Namespace NS = Namespace.of("db", "sales");
  private static final TableIdentifier ORDERS = TableIdentifier.of(NS, "orders");

  private Database database;
  private CatalogObjects objects;
  private Warehouse warehouse;

  @BeforeEach
  void setUp(Database database) {
    this.database = database;
    objects = new CatalogObjects(database);
    warehouse = new Warehouses(database).ensure("r", "wh", "s3://bucket/wh", Map.of());
    Namespaces namespaces = new Namespaces(database);
    namespaces.create(warehouse, Namespace.of("db"), Map.of(), Change.NONE);
    namespaces.create(warehouse, NS, Map.of(), Change.NONE);
  }

  private CatalogObject create(TableIdentifier identifier, Kind kind) {
    // a location of its own, so only the name can clash
    String location = "s3://bucket/wh/" + identifier.name() + "-" + UUID.randomUUID();
    CatalogObject object =
        new CatalogObject(
            UUID.randomUUID(),
            identifier,
            kind,
            location,
            true,
            location + "/metadata/v1.json",
            "{\"v\":1}");
    objects.create(warehouse, object, TestEvents.of(warehouse, object), Change.NONE);
    return object;
  }

  @Test
  void theThreeReadsOfARowAgree() {
    CatalogObject created = create(ORDERS, Kind.TABLE);

    for (String known : Arrays.asList(null, created.metadataLocation(), "s3://other.json")) {
      Optional<CatalogObject> named = objects.find(warehouse, ORDERS, known);
      AtomicReference<CatalogObject> locked = new AtomicReference<>();
      boolean lockedAtKnown =
          objects.swapLocked(
              warehouse,
              ORDERS,
              known,
              row -> {
                locked.set(row);
                return null;
              },
              () -> {},
              Change.NONE);
      CatalogObject withAccess = readWithAccess(ORDERS, known);

      CatalogObject expected =
          known != null && known.equals(created.metadataLocation())
              ? new CatalogObject(
                  created.id(),
                  ORDERS,
                  Kind.TABLE,
                  created.location(),
                  true,
                  created.metadataLocation(),
                  null)
              : created;
      assertThat(named).contains(expected);
      assertThat(withAccess).isEqualTo(expected);
      if (known == null || known.equals(created.metadataLocation())) {
        assertThat(lockedAtKnown).isTrue();
        assertThat(locked.get()).isEqualTo(expected);
      } else {
        // a version other than the row's: a commit that held it locks nothing
        assertThat(lockedAtKnown).isFalse();
        assertThat(locked.get()).isNull();
      }
    }
  }

  /** The object half of {@code caller_access_and_object} (migration V7), as loads read it. */
  private CatalogObject readWithAccess(TableIdentifier identifier, String known) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT id, kind, location, owns_location, metadata_location, metadata"
                      + " FROM caller_access_and_object(?, ?, true, NULL, ?, -1, ?, ?, ?)"
                      + " WHERE kind IS NOT NULL")) {
            statement.setString(1, warehouse.realm());
            statement.setString(2, "anyone");
            statement.setLong(3, warehouse.id());
            statement.setArray(4, Namespaces.levels(connection, identifier.namespace()));
            statement.setString(5, identifier.name());
            statement.setString(6, known);
            try (ResultSet rs = statement.executeQuery()) {
              assertThat(rs.next()).isTrue();
              return new CatalogObjects.Lookup(warehouse.id(), identifier, known)
                  .read(rs, CatalogObjects.Lookup.COLUMNS);
            }
          }
        });
  }

  @Test
  void tablesAndViewsShareOneNameSpace() {
    create(ORDERS, Kind.TABLE);

    assertThatThrownBy(() -> create(ORDERS, Kind.VIEW))
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessageContaining("Table with same name already exists");
    assertThatThrownBy(() -> create(ORDERS, Kind.TABLE))
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessageContaining("Table already exists");
    assertThatThrownBy(() -> create(TableIdentifier.of("nowhere", "t"), Kind.TABLE))
        .isInstanceOf(NoSuchNamespaceException.class);
  }

  @Test
  void listingPagesThroughOneKindByName() {
    for (String name : List.of("e", "c", "a", "d", "b")) {
      create(TableIdentifier.of(NS, name), Kind.TABLE);
    }
    create(TableIdentifier.of(NS, "a_view"), Kind.VIEW);

    List<List<String>> pages = new ArrayList<>();
    String token = null;
    do {
      Page<TableIdentifier> page = objects.list(warehouse, NS, Kind.TABLE, token, 2);
      pages.add(page.items().stream().map(TableIdentifier::name).toList());
      token = page.nextPageToken();
    } while (token != null);

    assertThat(pages).containsExactly(List.of("a", "b"), List.of("c", "d"), List.of("e"));
    assertThat(objects.list(warehouse, NS, Kind.VIEW, null, 10).items())
        .containsExactly(TableIdentifier.of(NS, "a_view"));
  }

  /**
   * The first page a listing reads with the caller's access (V16) is the page the listing reads on
   * its own, name for name and token for token, from the start or a token and across the chunks of
   * 1,000 it is read in; it says when the namespace does not exist; and a statement bounded to
   * fewer rows (as the Data API's are) holds a page cut to fit, still with the token of its last
   * entry.
   */
  @Test
  void aPageReadWithTheAccessIsTheListingsOwnPage() {
    CatalogObject first = create(TableIdentifier.of(NS, "t0000"), Kind.TABLE);
    create(TableIdentifier.of(NS, "a_view"), Kind.VIEW);
    database.transaction(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO catalog_object (id, warehouse_id, namespace_id, name, kind,"
                      + " location, owns_location, metadata_location, metadata)"
                      + " SELECT gen_random_uuid(), o.warehouse_id, o.namespace_id,"
                      + " 't' || lpad(i::text, 4, '0'), o.kind, o.location || '_' || i, false,"
                      + " o.metadata_location, o.metadata FROM catalog_object o,"
                      + " generate_series(1, 2499) i WHERE o.id = ?")) {
            statement.setObject(1, first.id());
            return statement.executeUpdate();
          }
        });
    AccessQuery access = new AccessQuery(database);
    Caller caller = Caller.withAllRoles("r", "anyone");

    for (String token : Arrays.asList(null, Page.tokenAfter("t0998"))) {
      for (int size : List.of(1, 999, 1000, 1001, 2500, 10_000)) {
        Listing.Read read =
            access
                .read(
                    caller,
                    warehouse.id(),
                    new Listing(warehouse.id(), NS, Kind.TABLE, token, size))
                .listed()
                .orElseThrow();
        Page<TableIdentifier> own = objects.list(warehouse, NS, Kind.TABLE, token, size);
        assertThat(read.exists()).isTrue();
        assertThat(read.names(NS).map(name -> TableIdentifier.of(NS, name))).isEqualTo(own);
      }
    }
    assertThat(
            access
                .read(
                    caller,
                    warehouse.id(),
                    new Listing(warehouse.id(), Namespace.of("nowhere"), Kind.TABLE, null, 10))
                .listed())
        .contains(new Listing.Read(false, null));

    // no grants for this caller, so its page follows the header row: 10 rows in all, 9 of them
    // names, a page of 8 and the ninth to say that another follows
    Listing.Read bounded =
        database.read(
            connection -> {
              try (PreparedStatement statement =
                  connection.prepareStatement(
                      "SELECT page_limit, listed FROM caller_access_and_objects("
                          + "'r', 'anyone', true, '{}', ?, NULL, '{db,sales}', 'table', NULL,"
                          + " 1001, 10)")) {
                statement.setLong(1, warehouse.id());
                Integer limit = null;
                List<String> names = new ArrayList<>();
                int rows = 0;
                try (ResultSet rs = statement.executeQuery()) {
                  while (rs.next()) {
                    rows++;
                    if (rs.getString(2) != null) {
                      names.add(rs.getString(2));
                    } else {
                      limit = rs.getInt(1);
                    }
                  }
                }
                assertThat(rows).isEqualTo(10);
                return Listing.read(limit, names);
              }
            });
    assertThat(bounded.names(NS).map(name -> TableIdentifier.of(NS, name)))
        .isEqualTo(objects.list(warehouse, NS, Kind.TABLE, null, 8));
  }

  /**
   * A first page read with the access comes as one array (V19), whose text form quotes and escapes
   * some names ({@link TextArrays} reads it): each still lists as it was named, in the listing's
   * own order.
   */
  @Test
  void namesAnArrayQuotesListAsTheyWereNamed() {
    List<String> names =
        List.of(
            "NULL",
            "null",
            "a,b",
            "{c}",
            "\"d\"",
            "e\\f",
            " g ",
            "h'i",
            "ümlaut",
            "j k",
            "tab\there",
            "line\nbreak",
            "\u0001",
            "emoji \uD83D\uDE00",
            "\\\"\\",
            "}{",
            "nUlL");
    names.forEach(name -> create(TableIdentifier.of(NS, name), Kind.TABLE));
    Listing.Read read =
        new AccessQuery(database)
            .read(
                Caller.withAllRoles("r", "anyone"),
                warehouse.id(),
                new Listing(warehouse.id(), NS, Kind.TABLE, null, 100))
            .listed()
            .orElseThrow();
    assertThat(read.names(NS).map(name -> TableIdentifier.of(NS, name)))
        .isEqualTo(objects.list(warehouse, NS, Kind.TABLE, null, 100));
    assertThat(read.page().items()).containsExactlyInAnyOrderElementsOf(names);
  }

  @Test
  void aSwapMovesThePointerOnlyFromTheVersionItRead() {
    CatalogObject v1 = create(ORDERS, Kind.TABLE);
    Swap toV2 =
        new Swap(
            v1,
            v1.location(),
            "s3://bucket/wh/orders/metadata/v2.json",
            "{\"v\":2}",
            TestEvents.of(warehouse, v1));
    Swap alsoFromV1 =
        new Swap(
            v1,
            v1.location(),
            "s3://bucket/wh/orders/metadata/v2b.json",
            "{\"v\":3}",
            TestEvents.of(warehouse, v1));

    assertThat(objects.swap(warehouse, toV2, Change.NONE)).isTrue();
    assertThat(objects.swap(warehouse, alsoFromV1, Change.NONE)).isFalse();
    assertThat(objects.find(warehouse, ORDERS).orElseThrow().metadataJson()).isEqualTo("{\"v\":2}");
  }

  @Test
  void aLockedSwapThatFailsBeforeCommitChangesNothing() {
    CatalogObject v1 = create(ORDERS, Kind.TABLE);

    assertThatThrownBy(
            () ->
                objects.swapLocked(
                    warehouse,
                    ORDERS,
                    null,
                    row ->
                        new Swap(
                            row,
                            row.location(),
                            "s3://bucket/wh/orders/v2.json",
                            "{}",
                            TestEvents.of(warehouse, row)),
                    () -> {
                      throw new IllegalStateException("idempotency record refused");
                    },
                    Change.NONE))
        .isInstanceOf(IllegalStateException.class);
    assertThat(objects.find(warehouse, ORDERS)).contains(v1);
    assertThatThrownBy(
            () ->
                objects.swapLocked(
                    warehouse,
                    TableIdentifier.of(NS, "missing"),
                    null,
                    row -> null,
                    () -> {},
                    Change.NONE))
        .isInstanceOf(NoSuchTableException.class);
  }

  @Test
  void renameMovesTheRowAndRefusesATakenName() {
    CatalogObject orders = create(ORDERS, Kind.TABLE);
    create(TableIdentifier.of(NS, "taken"), Kind.VIEW);
    TableIdentifier moved = TableIdentifier.of(Namespace.of("db"), "orders");

    objects.rename(warehouse, ORDERS, moved, Kind.TABLE, Change.NONE);

    assertThat(objects.find(warehouse, ORDERS)).isEmpty();
    assertThat(objects.find(warehouse, moved).orElseThrow().id()).isEqualTo(orders.id());
    assertThatThrownBy(
            () ->
                objects.rename(
                    warehouse, moved, TableIdentifier.of(NS, "taken"), Kind.TABLE, Change.NONE))
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessageContaining("View already exists");
    assertThatThrownBy(
            () ->
                objects.rename(
                    warehouse, moved, TableIdentifier.of("nowhere", "t"), Kind.TABLE, Change.NONE))
        .isInstanceOf(NoSuchNamespaceException.class);
  }

  @Test
  void aDropRecordsItsPurgeInTheSameTransactionAndOnlyForItsKind() {
    CatalogObject orders = create(ORDERS, Kind.TABLE);
    CatalogObject kept = create(TableIdentifier.of(NS, "kept"), Kind.TABLE);

    assertThat(objects.drop(warehouse, ORDERS, Kind.VIEW, true, Change.NONE)).isEmpty();
    assertThat(objects.drop(warehouse, ORDERS, Kind.TABLE, true, Change.NONE))
        .map(CatalogObjects.Dropped::id)
        .contains(orders.id());
    assertThat(objects.drop(warehouse, kept.identifier(), Kind.TABLE, false, Change.NONE))
        .map(CatalogObjects.Dropped::id)
        .contains(kept.id());

    PurgeJobs jobs = new PurgeJobs(database);
    PurgeJob job = jobs.find(orders.id()).orElseThrow();
    assertThat(job.identifier()).isEqualTo(ORDERS.toString());
    assertThat(job.metadataLocation()).isEqualTo(orders.metadataLocation());
    assertThat(job.state()).isEqualTo(PurgeJob.State.QUEUED);
    assertThat(jobs.find(kept.id())).isEmpty();
    assertThat(objects.exists(warehouse, ORDERS, Kind.TABLE)).isFalse();
  }
}
