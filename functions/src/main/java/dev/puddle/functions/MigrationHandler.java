package dev.puddle.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.api.FunctionGroup;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.Migrations;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;

/**
 * The migration function (group {@code migrate}): the Lambda behind the CloudFormation custom
 * resource that brings the metastore schema up to date at deploy time, never on a cold start.
 * Create and Update run the migrations, which are idempotent and serialized by a lock; Delete
 * leaves the schema alone, so removing the stack never drops the catalog. CloudFormation always
 * gets an answer: SUCCESS with the number of scripts applied, or FAILED with the reason.
 */
public final class MigrationHandler implements RequestStreamHandler {
  /** The custom resource's physical id: the one schema of the metastore. */
  static final String PHYSICAL_ID = "puddle-metastore-schema";

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** Built in the execution environment's init phase. */
  private static final class FromEnvironment {
    static final Database DATABASE = database(System.getenv());
  }

  private final Database database;

  public MigrationHandler() {
    this(FromEnvironment.DATABASE);
  }

  /** A handler wired from the given environment variables, as Lambda would from its own. */
  public MigrationHandler(Map<String, String> environment) {
    this(database(environment));
  }

  private MigrationHandler(Database database) {
    this.database = database;
  }

  private static Database database(Map<String, String> variables) {
    Environment env = new Environment(variables);
    if (env.group() != FunctionGroup.MIGRATE) {
      throw new IllegalStateException(
          "The migration handler serves the migrate group, not " + env.group());
    }
    return new Database(env.connections(env.credentials()), 1);
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
      return CustomResourceResponse.success(
          event, PHYSICAL_ID, Map.of("AppliedScripts", Integer.toString(applied)));
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
