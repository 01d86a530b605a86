package dev.puddle.core.rest;

import dev.puddle.contract.Route;
import dev.puddle.core.access.AccessPolicy;
import dev.puddle.core.access.Operation;
import dev.puddle.core.access.Targets;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.catalog.Committed;
import dev.puddle.core.catalog.RequestedLocations;
import dev.puddle.core.catalog.TableCommit;
import dev.puddle.core.catalog.VersionCache;
import dev.puddle.core.maintenance.MaintenanceOutbox;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Listing;
import dev.puddle.core.metastore.Page;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.planning.PlanningSettings;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.CatalogHandlers;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.requests.RenameTableRequest;
import org.apache.iceberg.rest.requests.ReportMetricsRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.apache.iceberg.rest.responses.LoadTableResponse;

/**
 * The table operations of the REST specification. Metadata semantics (requirements, updates, staged
 * creates, server-side commit retries) are iceberg-core's {@link CatalogHandlers} over {@link
 * dev.puddle.core.catalog.PuddleCatalog}.
 */
final class TableEndpoints {
  static final String SNAPSHOTS_ALL = "all";

  private final CatalogObjects objects;
  private final VersionCache<TableMetadata> parsed;
  private final LoadedTables loaded;
  private final MaintenanceOutbox maintenance;
  private final ListingAnswers answers;

  TableEndpoints(
      CatalogObjects objects,
      VersionCache<TableMetadata> parsed,
      LoadedTables loaded,
      MaintenanceOutbox maintenance,
      ListingAnswers answers) {
    this.objects = objects;
    this.parsed = parsed;
    this.loaded = loaded;
    this.maintenance = maintenance;
    this.answers = answers;
  }

  Response listTables(Scope scope) {
    return list(scope, Kind.TABLE);
  }

  /**
   * The tables ({@code kind} TABLE) or views of the request's namespace the caller may see. The
   * page is fetched as the listed names, made identifiers only for a response not answered before:
   * a namespace's 2,000 tables compare as 2,000 strings, and allocate no identifier.
   */
  Response list(Scope scope, Kind kind) {
    Namespace namespace = scope.namespace();
    Paging paging = Paging.of(scope.request());
    boolean everything =
        scope.allows(
            kind == Kind.TABLE ? Operation.SHOW_EVERY_TABLE : Operation.SHOW_EVERY_VIEW,
            Targets.namespace(namespace));
    Optional<Page<String>> first = scope.listed().map(read -> read.names(namespace));
    // every entry's JSON is {"namespace":[…],"name":"…"}, of which only the name differs
    long entryBytes = 24 + Paging.jsonBytes(namespace);
    Page<String> page =
        paging.fetch(
            first.map(names -> everything ? names : visible(scope, kind, namespace, names)),
            (token, size) -> {
              Page<String> names =
                  names(objects.list(scope.warehouse(), namespace, kind, token, size));
              return everything ? names : visible(scope, kind, namespace, names);
            },
            name -> entryBytes + Paging.jsonBytes(name),
            Listing::tokenAfter);
    return answers.answer(
        new ListingAnswers.Question(kind.sql(), scope.warehouse().id(), namespace, paging),
        page,
        names -> {
          ListTablesResponse.Builder response =
              ListTablesResponse.builder().nextPageToken(names.nextPageToken());
          names.items().forEach(name -> response.add(TableIdentifier.of(namespace, name)));
          return response.build();
        });
  }

  /** The names of a page of identifiers, with its token. */
  private static Page<String> names(Page<TableIdentifier> page) {
    return page.map(TableIdentifier::name);
  }

  /**
   * The names of tables or views of a page the caller holds TABLE_LIST or VIEW_LIST on, for one
   * that does not hold it on the whole namespace.
   */
  private static Page<String> visible(
      Scope scope, Kind kind, Namespace namespace, Page<String> page) {
    return new Page<>(
        page.items().stream()
            .filter(
                name ->
                    scope.allows(
                        kind == Kind.TABLE ? Operation.SHOW_TABLE : Operation.SHOW_VIEW,
                        Targets.object(TableIdentifier.of(namespace, name))))
            .toList(),
        page.nextPageToken());
  }

  Response createTable(Scope scope) {
    CreateTableRequest request = RestJson.read(scope.request().body(), CreateTableRequest.class);
    request.validate();
    Namespace namespace = scope.namespace();
    Names.checkCreatable(TableIdentifier.of(namespace, request.name()));
    RequestedLocations.checkCreate(scope.warehouse(), request.location(), request.properties());
    TableIdentifier table = TableIdentifier.of(namespace, request.name());
    answerCommits(scope, table);
    LoadTableResponse response =
        request.stageCreate()
            ? CatalogHandlers.stageTableCreate(scope.catalog(), namespace, request)
            : CatalogHandlers.createTable(scope.catalog(), namespace, request);
    return tableResponse(scope, table, response);
  }

  Response registerTable(Scope scope) {
    RegisterTableRequest request =
        RestJson.read(scope.request().body(), RegisterTableRequest.class);
    request.validate();
    TableIdentifier table = TableIdentifier.of(scope.namespace(), request.name());
    Names.checkCreatable(table);
    scope.authorize(AccessPolicy.register(request.overwrite()), Targets.object(table));
    answerCommits(scope, table);
    return tableResponse(
        scope, table, CatalogHandlers.registerTable(scope.catalog(), scope.namespace(), request));
  }

  /**
   * What a load of all snapshots or a commit reads first, the table's row, for the access check to
   * read in the same round trip; null for any other request, or a table name that is not valid.
   */
  CatalogObjects.Lookup rowLookup(Request request, Warehouse warehouse) {
    boolean load =
        request.route() == Route.LOAD_TABLE && snapshotsMode(request).equals(SNAPSHOTS_ALL);
    if (!load && request.route() != Route.UPDATE_TABLE) {
      return null;
    }
    TableIdentifier table;
    try {
      table = Scope.tableOf(request);
    } catch (RuntimeException e) {
      return null; // the request answers it as it would have
    }
    if (load) {
      return loaded.lookup(warehouse, table);
    }
    return TableCommit.lookup(warehouse, table, parsed);
  }

  private static String snapshotsMode(Request request) {
    return request.queryParameter("snapshots").orElse(SNAPSHOTS_ALL).toLowerCase(Locale.ROOT);
  }

  Response loadTable(Scope scope) {
    String mode = snapshotsMode(scope.request());
    RESTCatalogProperties.SnapshotMode snapshotMode;
    try {
      snapshotMode = RESTCatalogProperties.SnapshotMode.valueOf(mode.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new BadRequestException("Invalid snapshots mode: %s", mode);
    }
    if (snapshotMode == RESTCatalogProperties.SnapshotMode.ALL) {
      return loadStoredTable(scope);
    }
    LoadTableResponse loaded =
        CatalogHandlers.loadTable(scope.catalog(), scope.table(), snapshotMode);
    LoadTableResponse response =
        LoadTableResponse.builder()
            .withTableMetadata(loaded.tableMetadata())
            .addAllConfig(loaded.config())
            .addAllConfig(PlanningSettings.tableConfig(loaded.tableMetadata().properties()))
            .build();
    String etag = ETags.of(response.metadataLocation(), mode);
    return unlessNotModified(
        scope,
        etag,
        () -> Response.json(200, RestJson.write(response)).withHeader(ETags.HEADER, etag));
  }

  /**
   * A load of all snapshots answers with the stored metadata JSON as it is: iceberg-core's
   * TableMetadataParser wrote it at commit, exactly as it would write it into the response, so the
   * load neither parses nor re-serializes metadata, the main cost of loading a table with many
   * snapshots. A version this environment answered before is answered again from {@link
   * LoadedTables} without reading its metadata at all.
   */
  private Response loadStoredTable(Scope scope) {
    LoadedTables.Load load = loaded.load(scope.warehouse(), scope.table(), scope.row());
    return unlessNotModified(scope, load.etag(), load::response);
  }

  /** 304 when the client's {@code If-None-Match} has the tag, else the response, which has it. */
  private static Response unlessNotModified(Scope scope, String etag, Supplier<Response> tagged) {
    if (ETags.matches(scope.request().header("if-none-match").orElse(null), etag)) {
      return new Response(304, Map.of(ETags.HEADER, etag), null);
    }
    return tagged.get();
  }

  Response tableExists(Scope scope) {
    TableIdentifier table = scope.table();
    if (!objects.exists(scope.warehouse(), table, Kind.TABLE)) {
      throw new NoSuchTableException("Table does not exist: %s", table);
    }
    return Response.noContent();
  }

  Response updateTable(Scope scope) {
    UpdateTableRequest request = RestJson.read(scope.request().body(), UpdateTableRequest.class);
    TableIdentifier table = scope.table();
    if (request.identifier() != null && !request.identifier().equals(table)) {
      throw new BadRequestException(
          "Identifier in the request body %s does not match the path %s",
          request.identifier(), table);
    }
    authorizeCommit(scope, request);
    answerCommits(scope, table);
    if (TableCommit.creates(request.requirements())) {
      // a staged create: iceberg-core's create transaction
      return tableResponse(
          scope, table, CatalogHandlers.updateTable(scope.catalog(), table, request));
    }
    Committed committed = new TableCommit(scope.catalog()).commit(table, request, scope.row());
    // after the commit, off its transaction: a table past its snapshot threshold gets a run
    scope
        .row()
        .ifPresent(
            row ->
                maintenance.afterCommit(
                    row.id(), committed.metadata(), scope.warehouse().properties()));
    return loaded.committed(
        scope.warehouse(),
        table,
        committed.metadata().metadataFileLocation(),
        committed.metadataJson());
  }

  Response dropTable(Scope scope) {
    boolean purge =
        Boolean.parseBoolean(scope.request().queryParameter("purgeRequested").orElse("false"));
    TableIdentifier table = scope.table();
    if (!scope.catalog().dropTable(table, purge)) {
      throw new NoSuchTableException("Table does not exist: %s", table);
    }
    return Response.noContent();
  }

  Response renameTable(Scope scope) {
    RenameTableRequest request = RestJson.read(scope.request().body(), RenameTableRequest.class);
    request.validate();
    Names.checkCreatable(request.destination());
    scope.authorize(
        Operation.RENAME_TABLE, Targets.rename(request.source(), request.destination()));
    scope.catalog().renameTable(request.source(), request.destination());
    return Response.noContent();
  }

  Response reportMetrics(Scope scope) {
    ReportMetricsRequest request =
        RestJson.read(scope.request().body(), ReportMetricsRequest.class);
    if (request.report() == null) {
      throw new BadRequestException("Invalid metrics report: missing report");
    }
    scope.authorize(AccessPolicy.report(request.reportType()), Targets.object(scope.table()));
    return Response.noContent();
  }

  Response commitTransaction(Scope scope) {
    CommitTransactionRequest request =
        RestJson.read(scope.request().body(), CommitTransactionRequest.class);
    request.validate();
    request.tableChanges().forEach(change -> authorizeCommit(scope, change));
    scope.catalog().transactionCommit().commit(request);
    return Response.noContent();
  }

  /** A commit to one table: what its requirements and updates do decides what it needs. */
  private static void authorizeCommit(Scope scope, UpdateTableRequest change) {
    TableIdentifier table = change.identifier() != null ? change.identifier() : scope.table();
    scope.authorize(
        AccessPolicy.commit(TableCommit.creates(change.requirements()), change.updates()),
        Targets.object(table));
  }

  /**
   * Answers a create, register or commit of {@code table} with the version its transaction makes
   * current, before that transaction commits: the response {@link #tableResponse} gives afterwards
   * is the same one, built from that version alone, so it is built (and gzipped) while the
   * transaction waits for the metadata file's upload, not after {@code COMMIT}, and a keyed request
   * stores it with its claim instead of in a statement of its own.
   */
  private void answerCommits(Scope scope, TableIdentifier table) {
    scope
        .change()
        .mark()
        .answerWith(
            version ->
                version.kind() == Kind.TABLE && version.identifier().equals(table)
                    ? loaded.committed(
                        scope.warehouse(),
                        table,
                        version.metadataLocation(),
                        version.metadataJson())
                    : null);
  }

  /**
   * The response of a create, register or commit. A table now at a new metadata location answers
   * with the JSON its commit stored, which is also kept for the next loads of that version; a
   * staged create has no location yet.
   */
  private Response tableResponse(Scope scope, TableIdentifier table, LoadTableResponse response) {
    TableMetadata metadata = response.tableMetadata();
    String location = metadata.metadataFileLocation();
    if (location == null) {
      return Response.json(200, RestJson.write(response));
    }
    return loaded.committed(
        scope.warehouse(), table, location, scope.catalog().metadataJson(metadata));
  }
}
