package dev.puddle.core.rest;

import dev.puddle.core.access.AccessLevel;
import dev.puddle.core.access.AccessPolicy;
import dev.puddle.core.access.CallerAccess;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.metastore.CatalogObject;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.metastore.CatalogObjects;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.vending.AccessDelegation;
import dev.puddle.core.vending.CredentialVending;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.responses.ImmutableLoadCredentialsResponse;

/**
 * Delegated access in table responses ({@code X-Iceberg-Access-Delegation} on create, register,
 * load and commit): vended credentials, or the properties that make the client ask {@link
 * SignEndpoint} to sign its S3 requests; and vended credentials from {@code GET
 * …/tables/{table}/credentials}.
 *
 * <p>The caller's data access is decided before the request runs, so a caller without it gets 403
 * and nothing changes. The credentials are added to the response afterwards, outside the
 * idempotency record: a replayed response gets fresh credentials, and none are ever stored.
 */
final class CredentialEndpoints {
  /** {@code s3.signer.endpoint}: the signer endpoint's name before Iceberg 1.11. */
  private static final String LEGACY_SIGNER_ENDPOINT = "s3.signer.endpoint";

  /**
   * A table response that is to carry delegated access of {@code mode} for {@code caller}, at
   * {@code level}.
   */
  record Delegation(
      Caller caller,
      Warehouse warehouse,
      TableIdentifier table,
      AccessLevel level,
      AccessDelegation.Mode mode) {}

  private final CredentialVending vending;
  private final boolean signs;
  private final CatalogObjects objects;

  /**
   * @param signs whether this catalog signs S3 requests ({@link SignEndpoint})
   */
  CredentialEndpoints(CredentialVending vending, boolean signs, CatalogObjects objects) {
    this.vending = vending;
    this.signs = signs;
    this.objects = objects;
  }

  /** The delegation modes a table of {@code warehouse} may be answered with. */
  Set<AccessDelegation.Mode> offered(Warehouse warehouse) {
    Set<AccessDelegation.Mode> modes = EnumSet.noneOf(AccessDelegation.Mode.class);
    if (vending.enabled(warehouse)) {
      modes.add(AccessDelegation.Mode.VENDED_CREDENTIALS);
    }
    if (signs) {
      modes.add(AccessDelegation.Mode.REMOTE_SIGNING);
    }
    return modes;
  }

  /** Whether /v1/config should tell clients to ask for credentials. */
  boolean vends(Warehouse warehouse) {
    return vending.enabled(warehouse);
  }

  /**
   * The delegation of a table request, decided before the request runs: null if it asks for none
   * this catalog offers there; 403 for a caller without access to the table's data.
   */
  Delegation prepare(Request request, CallerAccess access, Warehouse warehouse) {
    Optional<AccessDelegation.Mode> mode = AccessDelegation.requested(request, offered(warehouse));
    if (mode.isEmpty()) {
      return null;
    }
    Namespace namespace = Names.namespace(request.pathParameter("namespace").orElse(""));
    TableIdentifier table =
        switch (request.route()) {
          case CREATE_TABLE -> {
            CreateTableRequest create = RestJson.read(request.body(), CreateTableRequest.class);
            create.validate();
            yield TableIdentifier.of(namespace, create.name());
          }
          case REGISTER_TABLE -> {
            RegisterTableRequest register =
                RestJson.read(request.body(), RegisterTableRequest.class);
            register.validate();
            yield TableIdentifier.of(namespace, register.name());
          }
          default ->
              TableIdentifier.of(
                  namespace, Names.segment(request.pathParameter("table").orElseThrow()));
        };
    return new Delegation(
        access.caller(), warehouse, table, AccessPolicy.delegation(access, table), mode.get());
  }

  /** A successful table response with the delegation's credentials or signer added. */
  Response attach(Delegation delegation, Response response) {
    if (response.status() != 200 || response.body() == null) {
      return response;
    }
    if (delegation.mode() == AccessDelegation.Mode.REMOTE_SIGNING) {
      return new Response(
          response.status(),
          response.headers(),
          TableBodies.withCredentials(
              response.body(),
              signerConfig(delegation.warehouse(), delegation.table()),
              List.of()));
    }
    TableBodies.TableLocation table = TableBodies.ofResponse(response.body());
    Credential credential =
        credential(
            delegation.caller(),
            delegation.warehouse(),
            delegation.table(),
            delegation.level(),
            table);
    return new Response(
        response.status(),
        response.headers(),
        TableBodies.withCredentials(response.body(), credential.config(), List.of(credential)));
  }

  /**
   * {@code GET …/tables/{table}/credentials}: fresh credentials for the table, for engines to
   * refresh with before theirs expire. A warehouse that vends none answers with an empty list.
   */
  Response loadCredentials(Scope scope) {
    TableIdentifier table = scope.table();
    CatalogObject row =
        objects
            .find(scope.warehouse(), table)
            .filter(o -> o.kind() == Kind.TABLE)
            .orElseThrow(() -> new NoSuchTableException("Table does not exist: %s", table));
    ImmutableLoadCredentialsResponse.Builder response = ImmutableLoadCredentialsResponse.builder();
    if (vending.enabled(scope.warehouse())) {
      AccessLevel level = AccessPolicy.delegation(scope.access(), table);
      response.addCredentials(
          credential(
              scope.caller(),
              scope.warehouse(),
              table,
              level,
              TableBodies.ofMetadata(row.metadataJson())));
    }
    return Response.json(200, RestJson.write(response.build()));
  }

  /**
   * The credentials of a scan plan's response, for a request that asks for them: read-only, as the
   * plan's files are only read, and scoped to the table; none if the warehouse vends none.
   */
  List<Credential> forScan(Scope scope, TableIdentifier table, TableBodies.TableLocation location) {
    if (!vendsForScan(scope)) {
      return List.of();
    }
    return List.of(
        credential(scope.caller(), scope.warehouse(), table, AccessLevel.READ, location));
  }

  /** Whether a scan's answer carries storage credentials: whether the request asks for them. */
  boolean vendsForScan(Scope scope) {
    return AccessDelegation.requested(scope.request(), offered(scope.warehouse()))
        .filter(m -> m == AccessDelegation.Mode.VENDED_CREDENTIALS)
        .isPresent();
  }

  private Credential credential(
      Caller caller,
      Warehouse warehouse,
      TableIdentifier table,
      AccessLevel level,
      TableBodies.TableLocation location) {
    return vending.credentials(
        caller,
        warehouse,
        level,
        location.location(),
        location.properties(),
        refreshEndpoint(warehouse, table));
  }

  /**
   * What makes Iceberg's S3FileIO sign through the table's {@code signRequest} endpoint: remote
   * signing on, and the endpoint, relative to the catalog URI (the signer's default base), under
   * its 1.11 name and the name clients before 1.11 read. No storage keys: the client signs nothing
   * itself.
   */
  private static Map<String, String> signerConfig(Warehouse warehouse, TableIdentifier table) {
    String endpoint = tablePath(warehouse, table) + "/sign";
    Map<String, String> config = new LinkedHashMap<>();
    config.put(S3FileIOProperties.REMOTE_SIGNING_ENABLED, "true");
    config.put(RESTCatalogProperties.SIGNER_ENDPOINT, endpoint);
    config.put(LEGACY_SIGNER_ENDPOINT, endpoint);
    return config;
  }

  /** The table's credentials endpoint, relative to the catalog URI, as clients resolve it. */
  private static String refreshEndpoint(Warehouse warehouse, TableIdentifier table) {
    return tablePath(warehouse, table) + "/credentials";
  }

  private static String tablePath(Warehouse warehouse, TableIdentifier table) {
    return "v1/"
        + RESTUtil.encodeString(warehouse.name())
        + "/namespaces/"
        + RESTUtil.encodeNamespace(table.namespace(), Names.SEPARATOR_ENCODED)
        + "/tables/"
        + RESTUtil.encodeString(table.name());
  }
}
