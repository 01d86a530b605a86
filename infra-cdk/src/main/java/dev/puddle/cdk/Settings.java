package dev.puddle.cdk;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a deployment is configured with: the CDK context parameters (`-c name=value`, or the
 * `context` of cdk.json), each documented in the README's deploy section. Parsed once, with every
 * default in one place; a malformed value stops the synth with the parameter's name.
 */
public record Settings(
    Profile profile,
    Path functionsJar,
    Path consoleFiles,
    String runtime,
    String vpcId,
    Egress egress,
    int maxAzs,
    int natGateways,
    String bucketName,
    boolean bucketVersioning,
    int auroraVersion,
    double minAcu,
    double maxAcu,
    int autoPauseMinutes,
    boolean deletionProtection,
    String realm,
    String defaultWarehouse,
    String metricsNamespace,
    Map<Group, Integer> memory,
    Map<Group, Integer> reservedConcurrency,
    int purgeMaxConcurrency,
    int purgeMaxReceives,
    int sweepMinutes,
    int keepAliveDays,
    int logRetentionDays,
    int throttleRateLimit,
    int throttleBurstLimit,
    int api5xxAlarmThreshold,
    String alarmEmail,
    String alarmTopicArn,
    ExternalIdp externalIdp,
    int auroraReaders,
    int backupRetentionDays,
    String restoreSnapshot,
    int bucketNoncurrentDays,
    boolean dashboard) {

  /** The two shapes of a deployment (DESIGN §1). */
  public enum Profile {
    /** Functions in a VPC, RDS Proxy with IAM auth and TLS, JDBC. */
    STANDARD,
    /** Functions outside any VPC, the RDS Data API, Aurora pausing at 0 ACU. */
    LEAN
  }

  /** How functions in the standard profile's VPC reach AWS APIs. */
  public enum Egress {
    /** Interface endpoints for SQS, Secrets Manager and STS; no route to the internet. */
    ENDPOINTS,
    /** A NAT gateway. */
    NAT
  }

  /** Reads every parameter from a context lookup (the app's node), with the defaults. */
  public static Settings from(Function<String, Object> context) {
    Context c = new Context(context);
    Profile profile = c.choice("profile", Profile.class, Profile.LEAN);
    Map<Group, Integer> memory = new java.util.EnumMap<>(Group.class);
    Map<Group, Integer> reserved = new java.util.EnumMap<>(Group.class);
    for (Group group : Group.values()) {
      memory.put(group, c.integer("memory." + group.id(), group.defaultMemory()));
      c.optionalInteger("reservedConcurrency." + group.id()).ifPresent(n -> reserved.put(group, n));
    }
    String runtime = c.string("runtime", "java25");
    if (!runtime.equals("java21") && !runtime.equals("java25")) {
      throw new IllegalArgumentException("Context runtime must be java21 or java25: " + runtime);
    }
    int auroraVersion = c.integer("auroraVersion", 17);
    if (auroraVersion != 16 && auroraVersion != 17) {
      throw new IllegalArgumentException(
          "Context auroraVersion must be 16 or 17: " + auroraVersion);
    }
    return new Settings(
        profile,
        Path.of(c.string("functionsJar", "../functions/target/puddle-functions.jar")),
        Path.of(c.string("consoleFiles", "../console/target/classes/dev/puddle/console")),
        runtime,
        c.string("vpcId", null),
        c.choice("egress", Egress.class, Egress.ENDPOINTS),
        c.integer("maxAzs", 2),
        c.integer("natGateways", 1),
        c.string("bucketName", null),
        c.bool("bucketVersioning", false),
        auroraVersion,
        c.decimal("minAcu", profile == Profile.LEAN ? 0 : 0.5),
        c.decimal("maxAcu", 4),
        c.integer("autoPauseMinutes", 5),
        c.bool("deletionProtection", true),
        c.string("realm", "default"),
        c.string("defaultWarehouse", "default"),
        c.string("metricsNamespace", "Puddle"),
        Map.copyOf(memory),
        Map.copyOf(reserved),
        c.between("purgeMaxConcurrency", 5, 2, 1000),
        c.between("purgeMaxReceives", 5, 1, 1000),
        // the sweep reads the metastore: in the lean profile, often enough to resume a paused
        // cluster a few times a day, not every few minutes
        c.between("sweepMinutes", profile == Profile.LEAN ? 360 : 5, 1, 1440),
        // a SnapStart version goes inactive after 14 days without an invocation
        c.between("keepAliveDays", 4, 1, 13),
        c.integer("logRetentionDays", 30),
        c.integer("throttleRateLimit", 200),
        c.integer("throttleBurstLimit", 400),
        c.integer("api5xxAlarmThreshold", 5),
        c.string("alarmEmail", null),
        c.string("alarmTopicArn", null),
        externalIdp(c),
        // standard: a reader in a second AZ that Aurora promotes when the writer's AZ fails; lean
        // stays one instance, as a reader costs at least its minimum capacity around the clock
        c.between("auroraReaders", profile == Profile.LEAN ? 0 : 1, 0, 15),
        c.between("backupRetentionDays", 7, 1, 35),
        c.string("restoreSnapshot", null),
        c.between("bucketNoncurrentDays", 30, 1, 3650),
        // a dashboard costs $3 a month, more than half of an idle lean catalog
        c.bool("dashboard", profile != Profile.LEAN));
  }

  /** The external identity provider, if {@code jwtIssuer} names one. */
  private static ExternalIdp externalIdp(Context c) {
    String issuer = c.string("jwtIssuer", null);
    if (issuer == null) {
      for (String name : List.of("jwtJwksUri", "jwtAudience", "jwtPrincipalClaim")) {
        if (c.string(name, null) != null) {
          throw new IllegalArgumentException("Context " + name + " needs jwtIssuer");
        }
      }
      return null;
    }
    return new ExternalIdp(
        issuer,
        c.string("jwtJwksUri", null),
        c.list("jwtAudience"),
        c.string("jwtPrincipalClaim", "sub"));
  }

  public boolean lean() {
    return profile == Profile.LEAN;
  }

  /** Context values arrive as strings from `-c` and as JSON values from cdk.json. */
  private record Context(Function<String, Object> lookup) {
    String string(String name, String fallback) {
      Object value = lookup.apply(name);
      if (value == null || value.toString().isBlank()) {
        return fallback;
      }
      return value.toString().trim();
    }

    int integer(String name, int fallback) {
      return optionalInteger(name).orElse(fallback);
    }

    /** A whole number within limits AWS or Puddle set. */
    int between(String name, int fallback, int min, int max) {
      int value = integer(name, fallback);
      if (value < min || value > max) {
        throw new IllegalArgumentException(
            "Context " + name + " must be from " + min + " to " + max + ": " + value);
      }
      return value;
    }

    Optional<Integer> optionalInteger(String name) {
      String value = string(name, null);
      if (value == null) {
        return Optional.empty();
      }
      try {
        return Optional.of(new java.math.BigDecimal(value).intValueExact());
      } catch (NumberFormatException | ArithmeticException e) {
        throw new IllegalArgumentException("Context " + name + " must be a whole number: " + value);
      }
    }

    double decimal(String name, double fallback) {
      String value = string(name, null);
      if (value == null) {
        return fallback;
      }
      try {
        return Double.parseDouble(value);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("Context " + name + " must be a number: " + value);
      }
    }

    boolean bool(String name, boolean fallback) {
      String value = string(name, null);
      if (value == null) {
        return fallback;
      }
      return switch (value.toLowerCase(Locale.ROOT)) {
        case "true" -> true;
        case "false" -> false;
        default ->
            throw new IllegalArgumentException(
                "Context " + name + " must be true or false: " + value);
      };
    }

    <E extends Enum<E>> E choice(String name, Class<E> type, E fallback) {
      String value = string(name, null);
      if (value == null) {
        return fallback;
      }
      try {
        return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "Context "
                + name
                + " must be one of "
                + Arrays.stream(type.getEnumConstants())
                    .map(v -> v.name().toLowerCase(Locale.ROOT))
                    .toList()
                + ": "
                + value);
      }
    }

    List<String> list(String name) {
      String value = string(name, null);
      if (value == null) {
        return List.of();
      }
      return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
  }
}
