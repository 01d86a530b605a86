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
import java.util.List;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.RESTUtil;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.RegisterTableRequest;
import org.apache.iceberg.rest.responses.ImmutableLoadCredentialsResponse;

/**
 * Vended credentials in table responses ({@code X-Iceberg-Access-Delegation: vended-credentials} on
 * create, register, load and commit) and from {@code GET …/tables/{table}/credentials}.
 *
 * <p>The caller's data access is decided before the request runs, so a caller without it gets 403
 * and nothing changes. The credentials are added to the response afterwards, outside the
 * idempotency record: a replayed response gets fresh credentials, and none are ever stored.
 */
final class CredentialEndpoints {
  /** A table response that is to carry credentials for {@code caller}, at {@code level}. */
  record Delegation(Caller caller, Warehouse warehouse, TableIdentifier table, AccessLevel level) {}

  private final CredentialVending vending;
  private final CatalogObjects objects;

  CredentialEndpoints(CredentialVending vending, CatalogObjects objects) {
    this.vending = vending;
    this.objects = objects;
  }

  /** Whether /v1/config should tell clients to ask for credentials. */
  boolean vends(Warehouse warehouse) {
    return vending.enabled(warehouse);
  }

  /**
   * The delegation of a table request that asks for vended credentials, decided before the request
   * runs: 403 for a caller without access to the table's data; null if the warehouse vends no
   * credentials.
   */
  Delegation prepare(Request request, CallerAccess access, Warehouse warehouse) {
    if (!vending.enabled(warehouse)) {
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
        access.caller(), warehouse, table, AccessPolicy.delegation(access, table));
  }

  /** A successful table response with the delegation's credentials added. */
  Response attach(Delegation delegation, Response response) {
    if (response.status() != 200 || response.body() == null) {
      return response;
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
    if (!AccessDelegation.vendedCredentialsRequested(scope.request())
        || !vending.enabled(scope.warehouse())) {
      return List.of();
    }
    return List.of(
        credential(scope.caller(), scope.warehouse(), table, AccessLevel.READ, location));
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

  /** The table's credentials endpoint, relative to the catalog URI, as clients resolve it. */
  private static String refreshEndpoint(Warehouse warehouse, TableIdentifier table) {
    return "v1/"
        + RESTUtil.encodeString(warehouse.name())
        + "/namespaces/"
        + RESTUtil.encodeNamespace(table.namespace(), Names.SEPARATOR_ENCODED)
        + "/tables/"
        + RESTUtil.encodeString(table.name())
        + "/credentials";
  }
}
