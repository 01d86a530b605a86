package dev.puddle.core.rest;

import dev.puddle.contract.Route;
import dev.puddle.core.access.AccessPolicy;
import dev.puddle.core.access.BuiltInRoles;
import dev.puddle.core.access.CallerAccess;
import dev.puddle.core.access.Grant;
import dev.puddle.core.access.Privilege;
import dev.puddle.core.access.Securable;
import dev.puddle.core.api.Request;
import dev.puddle.core.api.Response;
import dev.puddle.core.auth.Caller;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.UpdateRequirement;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.rest.Endpoint;
import org.apache.iceberg.rest.requests.CommitTransactionRequest;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.CreateTableRequest;
import org.apache.iceberg.rest.requests.UpdateTableRequest;
import org.apache.iceberg.rest.responses.ConfigResponse;
import org.apache.iceberg.rest.responses.CreateNamespaceResponse;
import org.apache.iceberg.rest.responses.ListTablesResponse;
import org.apache.iceberg.rest.responses.LoadTableResponse;
import org.apache.iceberg.types.Types;

/**
 * Runs, without any I/O, the payload work of the REST API that serving a request needs after the
 * metastore answered: checking the caller's privileges on canned grants, parsing requests and table
 * metadata, checking requirements, applying updates, writing responses and errors. A SnapStart
 * snapshot taken after this holds those classes loaded and initialized, so the first request after
 * a restore does not pay for them.
 */
public final class PayloadPriming {
  private static final String COMMIT =
      "{\"identifier\":{\"namespace\":[\"priming\"],\"name\":\"events\"},"
          + "\"requirements\":[{\"type\":\"assert-current-schema-id\",\"current-schema-id\":0},"
          + "{\"type\":\"assert-ref-snapshot-id\",\"ref\":\"main\",\"snapshot-id\":null}],"
          + "\"updates\":[{\"action\":\"set-properties\",\"updates\":{\"owner\":\"priming\"}},"
          + "{\"action\":\"remove-properties\",\"removals\":[\"comment\"]},"
          + "{\"action\":\"add-snapshot\",\"snapshot\":{\"snapshot-id\":1,\"sequence-number\":1,"
          + "\"timestamp-ms\":1700000000000,\"manifest-list\":"
          + "\"s3://priming/events/metadata/snap-1.avro\",\"summary\":{\"operation\":\"append\"},"
          + "\"schema-id\":0}},"
          + "{\"action\":\"set-snapshot-ref\",\"ref-name\":\"main\",\"type\":\"branch\","
          + "\"snapshot-id\":1}]}";

  private PayloadPriming() {}

  /** Exercises the payload code once; returns the bytes written, so nothing is optimized away. */
  public static int run() {
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "at", Types.TimestampType.withZone()),
            Types.NestedField.optional(3, "name", Types.StringType.get()));
    PartitionSpec spec = PartitionSpec.builderFor(schema).day("at").build();
    CreateTableRequest create =
        RestJson.read(
            RestJson.write(
                CreateTableRequest.builder()
                    .withName("events")
                    .withSchema(schema)
                    .withPartitionSpec(spec)
                    .build()),
            CreateTableRequest.class);
    TableMetadata base =
        TableMetadata.newTableMetadata(
            create.schema(),
            create.spec(),
            SortOrder.unsorted(),
            "s3://priming/events",
            Map.of("comment", "primed"));

    UpdateTableRequest update = RestJson.read(COMMIT, UpdateTableRequest.class);
    int authorized = authorization(update);
    for (UpdateRequirement requirement : update.requirements()) {
      requirement.validate(base);
    }
    TableMetadata.Builder builder = TableMetadata.buildFrom(base);
    for (MetadataUpdate change : update.updates()) {
      change.applyTo(builder);
    }
    String json = TableMetadataParser.toJson(builder.build());
    TableMetadata committed = TableMetadataParser.fromJson("s3://priming/events/v1.json", json);
    String loaded =
        RestJson.write(LoadTableResponse.builder().withTableMetadata(committed).build());
    String etag = ETags.of(committed.metadataFileLocation(), "all");

    CommitTransactionRequest transaction =
        RestJson.read("{\"table-changes\":[" + COMMIT + "]}", CommitTransactionRequest.class);
    transaction.validate();
    CreateNamespaceRequest namespace =
        RestJson.read(
            "{\"namespace\":[\"priming\"],\"properties\":{}}", CreateNamespaceRequest.class);
    String other =
        RestJson.write(
                CreateNamespaceResponse.builder().withNamespace(namespace.namespace()).build())
            + RestJson.write(
                ListTablesResponse.builder()
                    .add(TableIdentifier.of(Namespace.of("priming"), "events"))
                    .build())
            + RestJson.write(
                ConfigResponse.builder()
                    .withEndpoints(List.of(Endpoint.V1_LOAD_TABLE))
                    .withIdempotencyKeyLifetime("PT30M")
                    .build());
    Response notFound = ErrorMapper.toResponse(new NoSuchTableException("Table does not exist"));
    Response conflict = ErrorMapper.toResponse(new CommitFailedException("Requirement failed"));
    return authorized
        + loaded.length()
        + etag.length()
        + other.length()
        + notFound.body().length()
        + conflict.body().length()
        + Names.namespace("priming\u001fevents").length();
  }

  /**
   * What {@link AccessPolicy} decides once the caller's grants are read: a catalog admin loading
   * and committing to a table, and a reader refused that commit.
   */
  private static int authorization(UpdateTableRequest update) {
    Caller caller = Caller.withAllRoles("priming", "priming");
    CallerAccess admin =
        new CallerAccess(
            caller,
            false,
            true,
            BuiltInRoles.CATALOG_ADMIN_PRIVILEGES.stream()
                .map(privilege -> new Grant(privilege, Securable.catalog()))
                .toList());
    CallerAccess reader =
        new CallerAccess(
            caller,
            false,
            true,
            List.of(
                new Grant(
                    Privilege.TABLE_READ_DATA, Securable.namespace(Namespace.of("priming")))));
    Map<String, String> table = Map.of("prefix", "wh", "namespace", "priming", "table", "events");
    Request load = new Request(Route.LOAD_TABLE, table, Map.of(), Map.of(), null);
    AccessPolicy.authorize(
        AccessPolicy.ofRequest(load).orElseThrow(), admin, Scope.targetsOf(load));
    int refused = 0;
    for (CallerAccess access : List.of(admin, reader)) {
      Request commit = new Request(Route.UPDATE_TABLE, table, Map.of(), Map.of(), COMMIT);
      try {
        AccessPolicy.authorize(
            AccessPolicy.commit(false, update.updates()), access, Scope.targetsOf(commit));
      } catch (ForbiddenException e) {
        refused += ErrorMapper.toResponse(e).body().length();
      }
    }
    return refused;
  }
}
