package dev.puddle.core.rest;

import dev.puddle.contract.Route;
import dev.puddle.core.api.Response;
import dev.puddle.core.planning.PlanningSettings;
import dev.puddle.core.storage.Storage;
import dev.puddle.core.vending.AccessDelegation;
import java.time.Duration;
import java.util.Arrays;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.RESTCatalogProperties;
import org.apache.iceberg.rest.responses.ConfigResponse;

/**
 * {@code GET /v1/config}: the warehouse's prefix, the storage properties engines need, the
 * namespace separator, every endpoint this catalog serves, the idempotency key lifetime, and, where
 * the warehouse vends credentials and engines get no storage keys here, a default {@code
 * X-Iceberg-Access-Delegation} header; and where the warehouse asks for server-side scan planning,
 * a default {@code scan-planning-mode} of {@code server}. A client that asks for remote signing
 * gets no storage keys: the catalog signs its requests, so it needs none.
 */
final class ConfigEndpoint {
  private final Storage storage;
  private final CredentialEndpoints credentials;
  private final boolean signs;
  private final Duration idempotencyKeyLifetime;

  /**
   * @param signs whether this catalog signs S3 requests: {@code signRequest} is listed only then
   */
  ConfigEndpoint(
      Storage storage,
      CredentialEndpoints credentials,
      boolean signs,
      Duration idempotencyKeyLifetime) {
    this.storage = storage;
    this.credentials = credentials;
    this.signs = signs;
    this.idempotencyKeyLifetime = idempotencyKeyLifetime;
  }

  Response config(Scope scope) {
    ConfigResponse.Builder builder = ConfigResponse.builder();
    if (idempotencyKeyLifetime != null) {
      builder.withIdempotencyKeyLifetime(idempotencyKeyLifetime.toString());
    }
    if (credentials.vends(scope.warehouse()) && !storage.handsOutKeys()) {
      // a default, as in PyIceberg: engines without keys of their own ask for credentials
      builder.withDefault("header." + AccessDelegation.HEADER, AccessDelegation.VENDED_CREDENTIALS);
    }
    boolean signing =
        AccessDelegation.requested(scope.request(), credentials.offered(scope.warehouse()))
            .filter(mode -> mode == AccessDelegation.Mode.REMOTE_SIGNING)
            .isPresent();
    if (PlanningSettings.of(scope.warehouse()).serverSide()) {
      // a default, so that a client may still choose for itself
      builder.withDefault(PlanningSettings.MODE, "server");
    }
    ConfigResponse response =
        builder
            .withDefaults(storage.configDefaults(!signing))
            .withOverride("prefix", scope.warehouse().name())
            .withOverride(RESTCatalogProperties.NAMESPACE_SEPARATOR, Names.SEPARATOR_ENCODED)
            .withEndpoints(
                Arrays.stream(Route.values())
                    .filter(Route::isCatalogEndpoint)
                    .filter(route -> signs || route != Route.SIGN_REQUEST)
                    .map(route -> Endpoint.create(route.method(), route.path()))
                    .toList())
            .build();
    return Response.json(200, RestJson.write(response));
  }
}
