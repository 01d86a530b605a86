package dev.puddle.cdk;

import dev.puddle.contract.EnvironmentVariable;
import dev.puddle.contract.EventRelayBatching;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.CustomResource;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.FileSystem;
import software.amazon.awscdk.SecretValue;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.events.IRuleTarget;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.Schedule;
import software.amazon.awscdk.services.events.targets.LambdaFunction;
import software.amazon.awscdk.services.iam.CompositePrincipal;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.eventsources.SqsEventSource;
import software.amazon.awscdk.services.secretsmanager.Secret;
import software.amazon.awscdk.services.secretsmanager.SecretStringGenerator;
import software.constructs.Construct;

/**
 * Puddle in one account and region: the HTTP API, the functions of every group from the one
 * artifact, the metastore, the warehouse bucket, the purge queues, the token signing key, root's
 * credential, the credential vending role, the migration custom resource, alarms, a dashboard and
 * the web console behind CloudFront. The profile (standard or lean) decides how the functions reach
 * the metastore; see {@link Settings}.
 */
public final class PuddleStack extends Stack {
  /** The custom resource type of the migrations; its handler is the migrate function. */
  static final String MIGRATIONS_TYPE = "Custom::PuddleMigrations";

  /** The signing secret's value as deployed: a JWK set without keys, no secret. */
  static final String EMPTY_KEY_SET = "{\"keys\":[]}";

  /** The client id of the realm's root principal, as the root credential secret holds it. */
  static final String ROOT_CLIENT_ID = "root";

  /** The length of root's generated secret: letters and digits only, about 238 bits. */
  static final int ROOT_SECRET_LENGTH = 40;

  /**
   * Planning functions at once: submitted plans wait in the queue rather than crowd the metastore.
   */
  static final int PLANNING_MAX_CONCURRENCY = 10;

  private final Map<Group, PuddleFunction> functions = new EnumMap<>(Group.class);

  public PuddleStack(Construct scope, String id, StackProps props, Settings settings) {
    super(scope, id, props);

    Network network = new Network(this, "Network", settings);
    Metastore metastore = new Metastore(this, "Metastore", settings, network);
    WarehouseBucket warehouse = new WarehouseBucket(this, "Warehouse", settings);
    PurgeQueues queues = new PurgeQueues(this, "PurgeQueues", settings);
    PurgeQueues planning = PurgeQueues.planning(this, "PlanningQueues");
    EventRelayInfra events = new EventRelayInfra(this, "Events");
    CatalogHttpApi api = new CatalogHttpApi(this, "Http", settings);
    // An empty JWK set: the token function generates the first key into it (so no private key is
    // ever in a template). The template must keep this value: CloudFormation writes it over the
    // secret's keys whenever it changes.
    Secret signingKey =
        Secret.Builder.create(this, "TokenSigningKey")
            .description("Puddle: the keys the token function signs its tokens with, a JWK set")
            .secretStringValue(SecretValue.unsafePlainText(EMPTY_KEY_SET))
            .build();

    // Secrets Manager generates root's secret at deploy time, so it is in no template; the
    // migrate function gives root this credential, and the deployer reads it here
    Secret rootCredential =
        Secret.Builder.create(this, "RootCredential")
            .description(
                "Puddle: the client id and secret of the root principal of the realm "
                    + settings.realm())
            .generateSecretString(
                SecretStringGenerator.builder()
                    .secretStringTemplate("{\"clientId\":\"" + ROOT_CLIENT_ID + "\"}")
                    .generateStringKey("clientSecret")
                    .excludePunctuation(true)
                    .passwordLength(ROOT_SECRET_LENGTH)
                    .build())
            .build();

    // one asset, uploaded once, for every function
    Code code = Code.fromAsset(settings.functionsJar().toString());

    Map<EnvironmentVariable, String> common = new EnumMap<>(metastore.environment());
    common.put(EnvironmentVariable.REALM, settings.realm());
    common.put(EnvironmentVariable.DEFAULT_WAREHOUSE, settings.defaultWarehouse());
    common.put(EnvironmentVariable.METRICS_NAMESPACE, settings.metricsNamespace());

    Map<EnvironmentVariable, String> http = new EnumMap<>(common);
    http.put(EnvironmentVariable.TOKEN_ISSUER, api.url());
    if (settings.externalIdp() != null) {
      http.put(
          EnvironmentVariable.AUTH_ISSUERS, settings.externalIdp().authIssuers(settings.realm()));
    }

    for (Group group : Group.values()) {
      Map<EnvironmentVariable, String> environment =
          new EnumMap<>(group.servesApi() ? http : common);
      if (group == Group.WRITE || group == Group.ADMIN || group == Group.EVENT_SWEEP) {
        environment.put(EnvironmentVariable.EVENT_RELAY_QUEUE_URL, events.queue().getQueueUrl());
      }
      switch (group) {
        // drops with purge, commits past a table's snapshot threshold and on-demand maintenance
        // runs send their jobs to the purge queue
        case WRITE, ADMIN ->
            environment.put(EnvironmentVariable.PURGE_QUEUE_URL, queues.queue().getQueueUrl());
        // scans too large to plan within a request are submitted to the planning queue
        case READ ->
            environment.put(EnvironmentVariable.PLANNING_QUEUE_URL, planning.queue().getQueueUrl());
        case PLAN -> {
          environment.put(EnvironmentVariable.PLANNING_QUEUE_URL, planning.queue().getQueueUrl());
          environment.put(
              EnvironmentVariable.PLANNING_MAX_RECEIVES,
              Integer.toString(PurgeQueues.PLANNING_MAX_RECEIVES));
        }
        case RELAY ->
            environment.put(EnvironmentVariable.EVENT_BUS_NAME, events.bus().getEventBusName());
        case TOKEN ->
            environment.put(
                EnvironmentVariable.TOKEN_SIGNING_SECRET_ARN, signingKey.getSecretArn());
        case PURGE -> {
          environment.put(EnvironmentVariable.PURGE_QUEUE_URL, queues.queue().getQueueUrl());
          environment.put(
              EnvironmentVariable.PURGE_MAX_RECEIVES,
              Integer.toString(settings.purgeMaxReceives()));
        }
        case SWEEP -> {
          environment.put(EnvironmentVariable.PURGE_QUEUE_URL, queues.queue().getQueueUrl());
          environment.put(EnvironmentVariable.PLANNING_QUEUE_URL, planning.queue().getQueueUrl());
          environment.put(
              EnvironmentVariable.PURGE_SWEEP_STALE_MINUTES,
              Long.toString(PurgeQueues.sweepStaleMinutes(settings)));
          environment.put(
              EnvironmentVariable.PLANNING_SWEEP_STALE_MINUTES,
              Long.toString(planning.redeliveryStaleMinutes()));
        }
        case EXPORT, REBUILD ->
            environment.put(EnvironmentVariable.EXPORT_LOCATION, warehouse.exportLocation());
        case MIGRATE -> {
          environment.put(EnvironmentVariable.DEFAULT_WAREHOUSE_LOCATION, warehouse.location());
          environment.put(
              EnvironmentVariable.ROOT_CREDENTIAL_SECRET_ARN, rootCredential.getSecretArn());
        }
        default -> {}
      }
      PuddleFunction function =
          new PuddleFunction(this, group, settings, code, network, environment);
      metastore.grantAccess(function.role());
      functions.put(group, function);
    }

    Role vending = vendingRole(warehouse);
    for (Group group : List.of(Group.READ, Group.WRITE)) {
      functions
          .get(group)
          .function()
          .addEnvironment(EnvironmentVariable.VENDING_ROLE_ARN.key(), vending.getRoleArn());
      role(group)
          .addToPrincipalPolicy(
              PolicyStatement.Builder.create()
                  .actions(List.of("sts:AssumeRole", "sts:TagSession"))
                  .resources(List.of(vending.getRoleArn()))
                  .build());
    }
    grantStorage(warehouse);
    queues.queue().grantSendMessages(role(Group.WRITE));
    queues.queue().grantSendMessages(role(Group.ADMIN));
    queues.queue().grantSendMessages(role(Group.PURGE));
    queues.queue().grantSendMessages(role(Group.SWEEP));
    planning.queue().grantSendMessages(role(Group.READ));
    planning.queue().grantSendMessages(role(Group.PLAN));
    planning.queue().grantSendMessages(role(Group.SWEEP));
    for (Group group : List.of(Group.WRITE, Group.ADMIN, Group.EVENT_SWEEP)) {
      events.queue().grantSendMessages(role(group));
    }
    events.bus().grantPutEventsTo(role(Group.RELAY));
    signingKey.grantRead(role(Group.TOKEN));
    rootCredential.grantRead(role(Group.MIGRATE));
    // the first token request writes the first key; nothing else may change the secret
    role(Group.TOKEN)
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("secretsmanager:PutSecretValue"))
                .resources(List.of(signingKey.getSecretArn()))
                .build());

    functions
        .get(Group.PURGE)
        .function()
        .addEventSource(
            SqsEventSource.Builder.create(queues.queue())
                // a job may use a whole invocation: one message each, in parallel up to the cap
                .batchSize(1)
                .reportBatchItemFailures(true)
                .maxConcurrency(settings.purgeMaxConcurrency())
                .build());
    functions
        .get(Group.PLAN)
        .function()
        .addEventSource(
            SqsEventSource.Builder.create(planning.queue())
                // a plan may use a whole invocation: one message each
                .batchSize(1)
                .reportBatchItemFailures(true)
                .maxConcurrency(PLANNING_MAX_CONCURRENCY)
                .build());
    Rule.Builder.create(this, "SweepSchedule")
        .description(
            "Puddle: re-send purge and maintenance jobs whose message was never sent or was lost,"
                + " and start the table maintenance runs that are due")
        .schedule(Schedule.rate(Duration.minutes(settings.sweepMinutes())))
        .targets(List.of(new LambdaFunction(functions.get(Group.SWEEP).function())))
        .build();
    functions
        .get(Group.RELAY)
        .function()
        .addEventSource(
            SqsEventSource.Builder.create(events.queue())
                // one relay publishes at a time (its claim); nudges wait rather than pile up, and
                // gather for a while: one invocation publishes for many changes
                .batchSize(EventRelayBatching.BATCH_SIZE)
                .maxBatchingWindow(Duration.seconds(EventRelayBatching.WINDOW.toSeconds()))
                .reportBatchItemFailures(true)
                .maxConcurrency(2)
                .build());
    Rule.Builder.create(this, "EventSweepSchedule")
        .description("Puddle: nudge the event relay for events left waiting; delete expired events")
        .schedule(Schedule.rate(Duration.minutes(settings.sweepMinutes())))
        .targets(List.of(new LambdaFunction(functions.get(Group.EVENT_SWEEP).function())))
        .build();
    Rule.Builder.create(this, "CatalogExportSchedule")
        .description(
            "Puddle: export principals, roles, grants, warehouses and namespaces to the warehouse"
                + " bucket, for a rebuild from the warehouse")
        // the export reads the metastore: in the lean profile, as rarely as the sweep, so a
        // paused cluster is not resumed every hour
        .schedule(
            Schedule.rate(
                settings.lean() ? Duration.minutes(settings.sweepMinutes()) : Duration.hours(1)))
        .targets(List.of(new LambdaFunction(functions.get(Group.EXPORT).function())))
        .build();
    Rule.Builder.create(this, "KeepAlive")
        .description(
            "Puddle: invoke each SnapStart alias, so no published version goes inactive when idle")
        .schedule(Schedule.rate(Duration.days(settings.keepAliveDays())))
        .targets(
            functions.values().stream()
                .filter(f -> f.group().servesApi())
                .map(f -> (IRuleTarget) new LambdaFunction(f.target()))
                .toList())
        .build();

    api.addRoutes(functions, settings);

    CustomResource migrations =
        CustomResource.Builder.create(this, "Migrations")
            .serviceToken(functions.get(Group.MIGRATE).function().getFunctionArn())
            .resourceType(MIGRATIONS_TYPE)
            // a new artifact may bring new scripts: run them before any alias moves to it
            .properties(
                Map.of("Artifact", FileSystem.fingerprint(settings.functionsJar().toString())))
            .build();
    migrations.getNode().addDependency(metastore.cluster());
    for (PuddleFunction function : functions.values()) {
      if (function.alias() != null) {
        function.alias().getNode().addDependency(migrations);
      }
    }
    api.stage().getNode().addDependency(migrations);

    WebConsole console = new WebConsole(this, "Console", settings, api);

    new Monitoring(
        this, "Monitoring", settings, functions.values(), queues, planning, events, api, metastore);
    Suppressions.apply(
        this,
        settings,
        functions,
        warehouse,
        metastore,
        network,
        api,
        signingKey,
        rootCredential,
        vending,
        console);

    CfnOutput.Builder.create(this, "CatalogUri")
        .description("The catalog URI engines use")
        .value(api.url())
        .build();
    CfnOutput.Builder.create(this, "ConsoleUrl")
        .description("The web console: sign in with a principal's client credentials")
        .value(console.url())
        .build();
    CfnOutput.Builder.create(this, "RootCredentialSecretArn")
        .description(
            "The secret holding root's client id and secret: aws secretsmanager get-secret-value"
                + " --secret-id <this> --query SecretString --output text")
        .value(rootCredential.getSecretArn())
        .build();
    CfnOutput.Builder.create(this, "WarehouseBucketName")
        .value(warehouse.bucket().getBucketName())
        .build();
    CfnOutput.Builder.create(this, "EventBusName")
        .description("The EventBridge bus catalog change events are published to (docs/events.md)")
        .value(events.bus().getEventBusName())
        .build();
    CfnOutput.Builder.create(this, "ExampleTableCommitsQueueUrl")
        .description("The example rule's queue: every table commit, as a CloudEvent")
        .value(events.exampleTarget().getQueueUrl())
        .build();
    CfnOutput.Builder.create(this, "PurgeQueueUrl").value(queues.queue().getQueueUrl()).build();
    CfnOutput.Builder.create(this, "PurgeDeadLetterQueueUrl")
        .value(queues.deadLetters().getQueueUrl())
        .build();
  }

  /**
   * The role credential vending hands engines a session of, narrowed per table by a session policy:
   * it may touch the warehouse's objects, and only the read and write functions may assume it
   * (tagging their sessions).
   */
  private Role vendingRole(WarehouseBucket warehouse) {
    Role vending =
        Role.Builder.create(this, "VendingRole")
            .description("Puddle: engines' access to the warehouse, vended per table")
            .assumedBy(
                new CompositePrincipal(role(Group.READ), role(Group.WRITE)).withSessionTags())
            .maxSessionDuration(Duration.hours(1))
            .build();
    vending.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .actions(
                List.of(
                    "s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload"))
            .resources(List.of(warehouse.objects()))
            .build());
    vending.addToPrincipalPolicy(denyControlFolder(warehouse));
    vending.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .actions(List.of("s3:ListBucket", "s3:GetBucketLocation"))
            .resources(List.of(warehouse.bucket().getBucketArn()))
            .build());
    return vending;
  }

  /** No write or delete in the bucket's control folder, where the catalog export lives. */
  private static PolicyStatement denyControlFolder(WarehouseBucket warehouse) {
    return PolicyStatement.Builder.create()
        .effect(Effect.DENY)
        .actions(List.of("s3:PutObject", "s3:DeleteObject"))
        .resources(List.of(warehouse.controlObjects()))
        .build();
  }

  /**
   * What each function may do with the warehouse's objects. Read: read them, for server-side scan
   * planning reads manifest lists and manifests (loads are served from PostgreSQL). Write: read any
   * object (register reads the metadata file it is given), write metadata files, and delete them,
   * for a commit that lost deletes the file it wrote. Plan: read them (manifest lists and
   * manifests). Purge: list, read (manifests) and delete anything. Sign: what engines do with their
   * tables' files (read, write, multipart uploads, delete, list), since the requests it signs are
   * made with its role; the signer lets each request reach its own table's locations only. The
   * others: nothing.
   */
  private void grantStorage(WarehouseBucket warehouse) {
    role(Group.READ)
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:GetObject"))
                .resources(List.of(warehouse.objects()))
                .build());
    role(Group.SIGN)
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(
                    List.of(
                        "s3:GetObject",
                        "s3:PutObject",
                        "s3:DeleteObject",
                        "s3:AbortMultipartUpload"))
                .resources(List.of(warehouse.objects()))
                .build());
    role(Group.SIGN)
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:ListBucket"))
                .resources(List.of(warehouse.bucket().getBucketArn()))
                .build());
    role(Group.WRITE)
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:GetObject"))
                .resources(List.of(warehouse.objects()))
                .build());
    role(Group.WRITE)
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:PutObject", "s3:AbortMultipartUpload", "s3:DeleteObject"))
                .resources(List.of(warehouse.metadataObjects()))
                .build());
    role(Group.PLAN)
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:GetObject"))
                .resources(List.of(warehouse.objects()))
                .build());
    role(Group.PURGE)
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:ListBucket"))
                .resources(List.of(warehouse.bucket().getBucketArn()))
                .build());
    role(Group.PURGE)
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:GetObject", "s3:DeleteObject"))
                .resources(List.of(warehouse.objects()))
                .build());
    // the functions that delete tables' files (purge and maintenance, the signer, engines' vended
    // role) may delete anything a table's metadata names, which the catalog keeps out of the
    // control folder; the deny keeps the export there even from a registered table's metadata
    role(Group.PURGE).addToPrincipalPolicy(denyControlFolder(warehouse));
    role(Group.SIGN).addToPrincipalPolicy(denyControlFolder(warehouse));
    // the export writes under its own prefix only; the rebuild reads and lists, never writes
    role(Group.EXPORT)
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:PutObject"))
                .resources(List.of(warehouse.exportObjects()))
                .build());
    role(Group.REBUILD)
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:ListBucket"))
                .resources(List.of(warehouse.bucket().getBucketArn()))
                .build());
    role(Group.REBUILD)
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:GetObject"))
                .resources(List.of(warehouse.objects()))
                .build());
    // a maintenance run commits its expiry, writing a metadata file as every commit does
    role(Group.PURGE)
        .addToPrincipalPolicy(
            PolicyStatement.Builder.create()
                .actions(List.of("s3:PutObject", "s3:AbortMultipartUpload"))
                .resources(List.of(warehouse.metadataObjects()))
                .build());
  }

  private Role role(Group group) {
    return functions.get(group).role();
  }
}
