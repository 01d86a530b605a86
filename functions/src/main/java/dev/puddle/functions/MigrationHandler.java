package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.contract.FunctionGroup;
import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.aws.RootCredentialSecret;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Migrations;
import dev.puddle.core.metastore.Warehouses;
import dev.puddle.core.metastore.access.RealmBootstrap;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;

/**
 * The migration function (group {@code migrate}): the Lambda behind the CloudFormation custom
 * resource that brings the metastore schema up to date at deploy time, bootstraps the realm's root
 * principal ({@link RealmBootstrap}) and creates the default warehouse if asked to. What it does on
 * Create, Update and Delete, and the variables it reads, are in {@code docs/deploy-aws.md} and
 * {@code docs/configuration.md}.
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
