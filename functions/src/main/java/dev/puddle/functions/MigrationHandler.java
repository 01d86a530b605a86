package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.FunctionGroup;
import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.access.RealmBootstrap;
import dev.puddle.core.access.RootCredentialSecret;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Migrations;
import dev.puddle.core.metastore.Warehouses;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;

/**
 * The migration function (group {@code migrate}): the Lambda behind the CloudFormation custom
 * resource that brings the metastore schema up to date at deploy time, never on a cold start.
 * Create and Update run the migrations, which are idempotent and serialized by a lock, then
 * bootstrap the function's realm (its root principal, see {@link RealmBootstrap}) if that has not
 * happened yet and, when {@code PUDDLE_DEFAULT_WAREHOUSE_LOCATION} is set, create the realm's
 * default warehouse at that location unless it exists, so a new deployment serves its first
 * request. Delete leaves the schema alone, so removing the stack never drops the catalog.
 * CloudFormation always gets an answer: SUCCESS with the number of scripts applied and root's
 * client id, or FAILED with the reason. When {@code PUDDLE_ROOT_CREDENTIAL_SECRET_ARN} is set (as
 * the stack sets it), root gets the credential that secret holds, read on every run: the deployer
 * reads it there, and a new value of the secret replaces root's credential on the next run.
 * Otherwise a root secret generated here is never shown: set one with the management API's
 * rotation.
 */
public final class MigrationHandler implements RequestStreamHandler {
  /** The custom resource's physical id: the one schema of the metastore. */
  static final String PHYSICAL_ID = "puddle-metastore-schema";

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** The warehouse a deployment starts with: realm, name and location. */
  private record DefaultWarehouse(String realm, String name, String location) {}

  /** Built in the execution environment's init phase. */
  private static final class FromEnvironment {
    static final MigrationHandler HANDLER = new MigrationHandler(System.getenv());
  }

  private final Database database;
  private final String realm;
  private final DefaultWarehouse warehouse;
  private final RootCredentialSecret rootCredential;

  public MigrationHandler() {
    this(FromEnvironment.HANDLER);
  }

  /** A handler wired from the given environment variables, as Lambda would from its own. */
  public MigrationHandler(Map<String, String> environment) {
    Environment env = new Environment(environment);
    if (env.group() != FunctionGroup.MIGRATE) {
      throw new IllegalStateException(
          "The migration handler serves the migrate group, not " + env.group());
    }
    this.database = new Database(env.connections(env.credentials()), 1);
    this.realm = env.realm();
    String location = env.defaultWarehouseLocation();
    this.warehouse =
        location == null
            ? null
            : new DefaultWarehouse(env.realm(), env.defaultWarehouse(), location);
    String rootSecret = env.rootCredentialSecretArn();
    this.rootCredential =
        rootSecret == null ? null : new RootCredentialSecret(rootSecret, env.secretsManager());
  }

  private MigrationHandler(MigrationHandler wired) {
    this.database = wired.database;
    this.realm = wired.realm;
    this.warehouse = wired.warehouse;
    this.rootCredential = wired.rootCredential;
  }

  @Override
  public void handleRequest(InputStream input, OutputStream output, Context context)
      throws IOException {
    CustomResourceEvent event = JSON.readValue(input, CustomResourceEvent.class);
    CustomResourceResponse response = respond(event);
    response.sendTo(event.responseUrl());
    JSON.writeValue(output, response);
  }

  private CustomResourceResponse respond(CustomResourceEvent event) {
    if ("Delete".equals(event.requestType())) {
      return CustomResourceResponse.success(event, physicalId(event), Map.of());
    }
    try {
      int applied = Migrations.migrate(database);
      PrincipalCredential credential = rootCredential == null ? null : rootCredential.read();
      RealmBootstrap.Result root = new RealmBootstrap(database).bootstrap(realm, credential);
      if (warehouse != null) {
        new Warehouses(database)
            .ensure(warehouse.realm(), warehouse.name(), warehouse.location(), Map.of());
      }
      return CustomResourceResponse.success(
          event,
          PHYSICAL_ID,
          Map.of("AppliedScripts", Integer.toString(applied), "RootClientId", root.clientId()));
    } catch (RuntimeException e) {
      return CustomResourceResponse.failure(
          event, physicalId(event), e.getClass().getSimpleName() + ": " + e.getMessage());
    } finally {
      database.closeIdleConnections();
    }
  }

  private static String physicalId(CustomResourceEvent event) {
    return event.physicalResourceId() != null ? event.physicalResourceId() : PHYSICAL_ID;
  }
}
