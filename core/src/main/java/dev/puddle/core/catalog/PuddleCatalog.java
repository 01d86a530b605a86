package dev.puddle.core.catalog;

import dev.puddle.core.events.CatalogEvents;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Change;
import dev.puddle.core.metastore.Namespaces;
import dev.puddle.core.metastore.Page;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.purge.PurgeOutbox;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.view.BaseMetastoreViewCatalog;
import org.apache.iceberg.view.View;
import org.apache.iceberg.view.ViewOperations;

/**
 * One warehouse as an Iceberg catalog of tables, views and namespaces, kept in PostgreSQL. It is
 * cheap to create: one per request, over the execution environment's shared metastore and FileIO.
 * The warehouse's properties are the catalog properties, so {@code table-default.*}, {@code
 * table-override.*}, {@code view-default.*} and {@code view-override.*} apply server-side.
 *
 * <p>Every new table or view gets a unique location, so a re-created table never shares files with
 * a dropped one. A drop within the warehouse's {@code drop.retention} keeps the object for undrop
 * (see {@link dev.puddle.core.metastore.DroppedObjects}); any other drop with purge records the
 * purge job in its own transaction and sends it to the purge queue once committed.
 */
public final class PuddleCatalog extends BaseMetastoreViewCatalog implements SupportsNamespaces {
  private static final int LIST_ALL_PAGE_SIZE = 1000;

  private final Warehouse warehouse;
  private final Namespaces namespaces;
  private final CatalogObjects objects;
  private final FileIO io;
  private final PurgeOutbox purges;
  private final VersionCache<TableMetadata> parsed;
  private final Change change;

  /** The JSON of each table metadata file this catalog's commits stored, by its location. */
  private final Map<String, String> committedJson;

  /**
   * What the one create this catalog runs read of its namespace and name ({@link
   * PuddleTableBuilder#create}): its name holds no table, and where the namespace's tables go. Null
   * in a request's catalog.
   */
  private final Namespaces.CreateSite createSite;

  /**
   * @param parsed the execution environment's parsed table metadata, shared by its requests
   * @param change what each change of the request writes in its own transaction
   */
  public PuddleCatalog(
      Warehouse warehouse,
      Namespaces namespaces,
      CatalogObjects objects,
      FileIO io,
      PurgeOutbox purges,
      VersionCache<TableMetadata> parsed,
      Change change) {
    this.warehouse = warehouse;
    this.namespaces = namespaces;
    this.objects = objects;
    this.io = io;
    this.purges = purges;
    this.parsed = parsed;
    this.change = change;
    this.committedJson = new HashMap<>();
    this.createSite = null;
  }

  /** {@code catalog} for one create that read {@code createSite}: its commits are the catalog's. */
  private PuddleCatalog(PuddleCatalog catalog, Namespaces.CreateSite createSite) {
    this.warehouse = catalog.warehouse;
    this.namespaces = catalog.namespaces;
    this.objects = catalog.objects;
    this.io = catalog.io;
    this.purges = catalog.purges;
    this.parsed = catalog.parsed;
    this.change = catalog.change;
    this.committedJson = catalog.committedJson;
    this.createSite = createSite;
  }

  @Override
  public String name() {
    return warehouse.name();
  }

  /** The warehouse's properties: table-default.*, view-override.* and so on. */
  @Override
  protected Map<String, String> properties() {
    return warehouse.properties();
  }

  public Warehouse warehouse() {
    return warehouse;
  }

  /**
   * The JSON of {@code metadata}'s file: as this catalog's commit stored it, or serialized now for
   * metadata it did not commit.
   */
  public String metadataJson(TableMetadata metadata) {
    String stored = committedJson.get(metadata.metadataFileLocation());
    return stored != null ? stored : TableMetadataParser.toJson(metadata);
  }

  @Override
  protected PuddleTableOperations newTableOps(TableIdentifier identifier) {
    PuddleTableOperations ops =
        new PuddleTableOperations(
            warehouse, identifier, objects, io, parsed, change, committedJson);
    if (createSite != null) {
      ops.startAbsent(); // the create read that its name holds no table
    }
    return ops;
  }

  /**
   * iceberg-core's table builder, whose {@code create()} reads whether the name holds a table and
   * then where the namespace's tables go: here one statement reads both, and the create runs in a
   * catalog given what it read, whose operations and default location take it.
   */
  @Override
  public Catalog.TableBuilder buildTable(TableIdentifier identifier, Schema schema) {
    return new PuddleTableBuilder(identifier, schema);
  }

  /** iceberg-core's own builder, of this catalog. */
  private Catalog.TableBuilder icebergBuilder(TableIdentifier identifier, Schema schema) {
    return super.buildTable(identifier, schema);
  }

  /**
   * Keeps a builder's settings until it is used, and hands them to iceberg-core's builder: of this
   * catalog for transactions, of the create's catalog for {@link #create}.
   */
  private final class PuddleTableBuilder implements Catalog.TableBuilder {
    private final TableIdentifier identifier;
    private final Schema schema;
    private final List<UnaryOperator<Catalog.TableBuilder>> settings = new ArrayList<>();

    PuddleTableBuilder(TableIdentifier identifier, Schema schema) {
      this.identifier = identifier;
      this.schema = schema;
    }

    private Catalog.TableBuilder with(UnaryOperator<Catalog.TableBuilder> setting) {
      settings.add(setting);
      return this;
    }

    @Override
    public Catalog.TableBuilder withPartitionSpec(PartitionSpec spec) {
      return with(builder -> builder.withPartitionSpec(spec));
    }

    @Override
    public Catalog.TableBuilder withSortOrder(SortOrder sortOrder) {
      return with(builder -> builder.withSortOrder(sortOrder));
    }

    @Override
    public Catalog.TableBuilder withLocation(String location) {
      return with(builder -> builder.withLocation(location));
    }

    @Override
    public Catalog.TableBuilder withProperties(Map<String, String> properties) {
      // as of now, as iceberg-core's builder copies them when given
      Map<String, String> given = properties == null ? null : new HashMap<>(properties);
      return with(builder -> builder.withProperties(given));
    }

    @Override
    public Catalog.TableBuilder withProperty(String key, String value) {
      return with(builder -> builder.withProperty(key, value));
    }

    private Catalog.TableBuilder of(PuddleCatalog catalog) {
      Catalog.TableBuilder builder = catalog.icebergBuilder(identifier, schema);
      for (UnaryOperator<Catalog.TableBuilder> setting : settings) {
        builder = setting.apply(builder);
      }
      return builder;
    }

    @Override
    public Table create() {
      Namespaces.CreateSite site = namespaces.createSite(warehouse, identifier);
      if (site.taken() == Kind.TABLE) {
        // iceberg-core's own refusal, without its read
        throw new AlreadyExistsException("Table already exists: %s", identifier);
      }
      return of(new PuddleCatalog(PuddleCatalog.this, site)).create();
    }

    @Override
    public Transaction createTransaction() {
      return of(PuddleCatalog.this).createTransaction();
    }

    @Override
    public Transaction replaceTransaction() {
      return of(PuddleCatalog.this).replaceTransaction();
    }

    @Override
    public Transaction createOrReplaceTransaction() {
      return of(PuddleCatalog.this).createOrReplaceTransaction();
    }
  }

  @Override
  protected ViewOperations newViewOps(TableIdentifier identifier) {
    return new PuddleViewOperations(warehouse, identifier, objects, io, change);
  }

  /** What a multi-table commit of this catalog's warehouse needs. */
  public TransactionCommit transactionCommit() {
    return new TransactionCommit(warehouse, objects, io, parsed, change);
  }

  /**
   * Where the tables of a namespace without a {@code location} of its own go: under the warehouse's
   * location, a folder per level.
   */
  public static String defaultLocation(Warehouse warehouse, Namespace namespace) {
    return warehouse.location() + "/" + String.join("/", namespace.levels());
  }

  /**
   * A unique location: under the namespace's location if it has one, else under the warehouse's,
   * named after the table with a random suffix.
   */
  @Override
  protected String defaultWarehouseLocation(TableIdentifier identifier) {
    String namespaceLocation =
        createSite != null
            ? createSite.location()
            : namespaces.location(warehouse, identifier.namespace());
    String base =
        namespaceLocation != null
            ? namespaceLocation
            : defaultLocation(warehouse, identifier.namespace());
    return base + "/" + identifier.name() + "-" + UUID.randomUUID().toString().replace("-", "");
  }

  /**
   * Registers a table from a metadata file, whose location must be one {@link RequestedLocations}
   * allows, checked before the file is read.
   */
  @Override
  public Table registerTable(TableIdentifier identifier, String metadataFileLocation) {
    return super.registerTable(
        identifier, RequestedLocations.check(warehouse, metadataFileLocation));
  }

  /** Registers a view from a metadata file, whose location is checked as a table's. */
  @Override
  public View registerView(TableIdentifier identifier, String metadataFileLocation) {
    return super.registerView(
        identifier, RequestedLocations.check(warehouse, metadataFileLocation));
  }

  /**
   * Registers a table; with {@code overwrite}, an existing table of that name is pointed at the
   * registered metadata instead, and from then on owns no location.
   */
  @Override
  public Table registerTable(
      TableIdentifier identifier, String metadataFileLocation, boolean overwrite) {
    if (!overwrite || !tableExists(identifier)) {
      return registerTable(identifier, metadataFileLocation);
    }
    String checked = RequestedLocations.check(warehouse, metadataFileLocation);
    TableMetadata metadata = TableMetadataParser.read(io, checked);
    RequestedLocations.checkObject(warehouse, false, metadata.location(), metadata.properties());
    objects.overwriteRegistered(
        warehouse,
        identifier,
        metadata.location(),
        checked,
        TableMetadataParser.toJson(metadata),
        CatalogEvents.registerTable(warehouse, identifier, metadata, checked),
        change);
    return loadTable(identifier);
  }

  @Override
  public boolean tableExists(TableIdentifier identifier) {
    return objects.exists(warehouse, identifier, Kind.TABLE);
  }

  @Override
  public boolean viewExists(TableIdentifier identifier) {
    return objects.exists(warehouse, identifier, Kind.VIEW);
  }

  @Override
  public List<TableIdentifier> listTables(Namespace namespace) {
    return listAll(
        token -> objects.list(warehouse, namespace, Kind.TABLE, token, LIST_ALL_PAGE_SIZE));
  }

  @Override
  public List<TableIdentifier> listViews(Namespace namespace) {
    return listAll(
        token -> objects.list(warehouse, namespace, Kind.VIEW, token, LIST_ALL_PAGE_SIZE));
  }

  @Override
  public boolean dropTable(TableIdentifier identifier, boolean purge) {
    return drop(identifier, Kind.TABLE, purge);
  }

  @Override
  public boolean dropView(TableIdentifier identifier) {
    return drop(identifier, Kind.VIEW, false);
  }

  /**
   * Drops a view and, with {@code purge}, its metadata files: a view has no data. Iceberg's
   * catalogs have no purge for views; Puddle accepts {@code purgeRequested} on view drops too.
   */
  public boolean dropView(TableIdentifier identifier, boolean purge) {
    return drop(identifier, Kind.VIEW, purge);
  }

  private boolean drop(TableIdentifier identifier, Kind kind, boolean purge) {
    Optional<CatalogObjects.Dropped> dropped =
        objects.drop(warehouse, identifier, kind, purge, change);
    dropped
        .filter(CatalogObjects.Dropped::purgeQueued)
        .map(CatalogObjects.Dropped::id)
        .ifPresent(purges::dispatch);
    return dropped.isPresent();
  }

  @Override
  public void renameTable(TableIdentifier from, TableIdentifier to) {
    objects.rename(warehouse, from, to, Kind.TABLE, change);
  }

  @Override
  public void renameView(TableIdentifier from, TableIdentifier to) {
    objects.rename(warehouse, from, to, Kind.VIEW, change);
  }

  @Override
  public void createNamespace(Namespace namespace, Map<String, String> metadata) {
    namespaces.create(warehouse, namespace, metadata, change);
  }

  @Override
  public List<Namespace> listNamespaces(Namespace namespace) throws NoSuchNamespaceException {
    return listAll(token -> namespaces.list(warehouse, namespace, token, LIST_ALL_PAGE_SIZE));
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(Namespace namespace) {
    return namespaces.load(warehouse, namespace);
  }

  @Override
  public boolean namespaceExists(Namespace namespace) {
    return namespaces.exists(warehouse, namespace);
  }

  @Override
  public boolean dropNamespace(Namespace namespace) {
    return namespaces.drop(warehouse, namespace, change);
  }

  @Override
  public boolean setProperties(Namespace namespace, Map<String, String> properties) {
    namespaces.updateProperties(warehouse, namespace, properties, Set.of(), change);
    return true;
  }

  @Override
  public boolean removeProperties(Namespace namespace, Set<String> properties) {
    return !namespaces
        .updateProperties(warehouse, namespace, Map.of(), properties, change)
        .removed()
        .isEmpty();
  }

  /** Every entry of a listing, whatever its size: Iceberg's catalog API does not page. */
  private static <T> List<T> listAll(Function<String, Page<T>> source) {
    return Page.fetchWithin(source, null, Long.MAX_VALUE, item -> 0, item -> null).items();
  }
}
