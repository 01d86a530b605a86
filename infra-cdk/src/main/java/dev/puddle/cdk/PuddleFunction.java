package dev.puddle.cdk;

import dev.puddle.contract.EnvironmentVariable;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.lambda.SnapStartConf;
import software.amazon.awscdk.services.logs.LogGroup;
import software.constructs.Construct;

/**
 * One function of the stack: its own role (nothing but writing its own log group, and in a VPC its
 * network interfaces, until the stack grants what its group needs), its log group, and for the
 * functions behind the HTTP API, SnapStart on published versions and the alias {@code live} that
 * API Gateway and the keep-alive schedule invoke.
 */
final class PuddleFunction extends Construct {
  static final String ALIAS = "live";

  private final Group group;
  private final Role role;
  private final Function function;
  private final Alias alias;

  PuddleFunction(
      Construct scope,
      Group group,
      Settings settings,
      Code code,
      Network network,
      Map<EnvironmentVariable, String> environment) {
    super(scope, Character.toUpperCase(group.id().charAt(0)) + group.id().substring(1));
    this.group = group;
    role =
        Role.Builder.create(this, "Role")
            .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
            .description("Puddle " + group.id() + " function")
            .build();
    LogGroup logs =
        LogGroup.Builder.create(this, "Logs")
            .retention(Retention.days(settings.logRetentionDays()))
            .build();
    logs.grantWrite(role);

    Map<String, String> variables = new HashMap<>();
    environment.forEach((variable, value) -> variables.put(variable.key(), value));
    // the purge and sweep handlers serve one thing each, and are told no group
    group
        .functionGroup()
        .map(served -> served.name().toLowerCase(Locale.ROOT))
        .ifPresent(value -> variables.put(EnvironmentVariable.FUNCTION_GROUP.key(), value));
    Function.Builder builder =
        Function.Builder.create(this, "Function")
            .description("Puddle " + group.id() + ": " + group.handler())
            .runtime(settings.runtime().equals("java21") ? Runtime.JAVA_21 : Runtime.JAVA_25)
            .architecture(Architecture.ARM_64)
            .handler(group.handler())
            .code(code)
            .memorySize(settings.memory().get(group))
            .timeout(Duration.seconds(group.timeout().toSeconds()))
            .role(role)
            .logGroup(logs)
            .environment(variables);
    if (group.servesApi()) {
      builder.snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS);
    }
    Integer reserved = settings.reservedConcurrency().get(group);
    if (reserved != null) {
      builder.reservedConcurrentExecutions(reserved);
    }
    if (network.functions() != null) {
      builder.vpc(network.vpc()).securityGroups(List.of(network.functions()));
      role.addManagedPolicy(
          ManagedPolicy.fromAwsManagedPolicyName("service-role/AWSLambdaVPCAccessExecutionRole"));
    }
    function = builder.build();
    if (group.servesApi()) {
      Annotations.of(function)
          .acknowledgeWarning(
              "@aws-cdk/aws-lambda:snapStartRequirePublish",
              "the alias below publishes a version with every change of the function");
    }
    alias =
        group.servesApi()
            ? Alias.Builder.create(this, "Live")
                .aliasName(ALIAS)
                .version(function.getCurrentVersion())
                .build()
            : null;
  }

  Group group() {
    return group;
  }

  Role role() {
    return role;
  }

  Function function() {
    return function;
  }

  /** What invokers call: the alias of a SnapStart function, else the function itself. */
  IFunction target() {
    return alias != null ? alias : function;
  }

  /** The alias; null for functions not behind the HTTP API. */
  Alias alias() {
    return alias;
  }
}
