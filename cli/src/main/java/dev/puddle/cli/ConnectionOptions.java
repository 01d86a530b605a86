package dev.puddle.cli;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * Where the catalog is and who calls it. Each value comes from its flag, else its environment
 * variable, else the profile, else its default. Options of the root command, inherited by every
 * sub-command, so they may be given before or after the sub-command's name.
 */
final class ConnectionOptions {
  @Option(
      names = "--uri",
      scope = ScopeType.INHERIT,
      paramLabel = "URI",
      description = "The catalog's URI (env PUDDLE_URI, profile key uri).")
  String uri;

  @Option(
      names = "--credential",
      scope = ScopeType.INHERIT,
      paramLabel = "ID:SECRET",
      description =
          "A principal's credential, exchanged for a token (env PUDDLE_CREDENTIAL, profile key"
              + " credential). Prefer the variable or a profile: other users see flags in the"
              + " process list.")
  String credential;

  @Option(
      names = "--token",
      scope = ScopeType.INHERIT,
      paramLabel = "TOKEN",
      description = "A bearer token to send instead (env PUDDLE_TOKEN, profile key token).")
  String token;

  @Option(
      names = {"-w", "--warehouse"},
      scope = ScopeType.INHERIT,
      paramLabel = "NAME",
      description =
          "The warehouse of warehouse-scoped commands (env PUDDLE_WAREHOUSE, profile key"
              + " warehouse; default: default).")
  String warehouse;

  @Option(
      names = "--scope",
      scope = ScopeType.INHERIT,
      paramLabel = "SCOPE",
      description =
          "The scope a credential's token asks for (profile key scope; default:"
              + " PRINCIPAL_ROLE:ALL).")
  String scope;

  @Option(
      names = {"-p", "--profile"},
      scope = ScopeType.INHERIT,
      paramLabel = "NAME",
      description =
          "The profile to read (env PUDDLE_PROFILE; default: default, if it exists), from"
              + " $XDG_CONFIG_HOME/puddle/profiles/NAME.properties or"
              + " ~/.config/puddle/profiles/NAME.properties, mode 0600.")
  String profile;

  @Option(
      names = {"-o", "--output"},
      scope = ScopeType.INHERIT,
      paramLabel = "FORMAT",
      description = "table (aligned columns, the default) or json (for scripts).")
  Output output = Output.TABLE;

  /** How results are printed. */
  enum Output {
    TABLE,
    JSON
  }

  /** The connection these options, the environment and the profile describe. */
  Connection resolve(Map<String, String> env) {
    String profileName = first(profile, env.get("PUDDLE_PROFILE")).orElse(null);
    Optional<Profile> file =
        Profile.load(profileName == null ? Profile.DEFAULT : profileName, env, profileName != null);
    String resolvedUri =
        first(uri, env.get("PUDDLE_URI"), file.flatMap(p -> p.get("uri")).orElse(null))
            .orElseThrow(
                () ->
                    CliException.usage(
                        "No catalog URI: pass --uri, set PUDDLE_URI, or write a profile"));
    // the caller: from the flags, else the environment, else the profile; a token or a credential
    Secret secret =
        Secret.of("flags", token, credential)
            .or(
                () ->
                    Secret.of("environment", env.get("PUDDLE_TOKEN"), env.get("PUDDLE_CREDENTIAL")))
            .or(
                () ->
                    Secret.of(
                        "profile",
                        file.flatMap(p -> p.get("token")).orElse(null),
                        file.flatMap(p -> p.get("credential")).orElse(null)))
            .orElseThrow(
                () ->
                    CliException.usage(
                        "No credential: set PUDDLE_CREDENTIAL (ID:SECRET) or PUDDLE_TOKEN, or"
                            + " write a profile"));
    URI base;
    try {
      base = URI.create(resolvedUri.endsWith("/") ? resolvedUri : resolvedUri + "/");
    } catch (IllegalArgumentException e) {
      throw CliException.usage("Invalid catalog URI '%s': %s", resolvedUri, e.getMessage());
    }
    if (!"http".equals(base.getScheme()) && !"https".equals(base.getScheme())) {
      throw CliException.usage("Invalid catalog URI '%s': use http or https", resolvedUri);
    }
    return new Connection(
        base,
        secret.token(),
        secret.credential(),
        first(scope, file.flatMap(p -> p.get("scope")).orElse(null)).orElse("PRINCIPAL_ROLE:ALL"),
        first(
                warehouse,
                env.get("PUDDLE_WAREHOUSE"),
                file.flatMap(p -> p.get("warehouse")).orElse(null))
            .orElse("default"));
  }

  private static Optional<String> first(String... values) {
    for (String value : values) {
      if (value != null && !value.isBlank()) {
        return Optional.of(value.strip());
      }
    }
    return Optional.empty();
  }

  /** A token or a credential, from one source. */
  private record Secret(String token, String credential) {
    static Optional<Secret> of(String source, String token, String credential) {
      Optional<String> t = first(token);
      Optional<String> c = first(credential);
      if (t.isPresent() && c.isPresent()) {
        throw CliException.usage("The %s give both a token and a credential: keep one", source);
      }
      if (c.isPresent() && c.get().indexOf(':') < 1) {
        throw CliException.usage(
            "Invalid credential from the %s: expected <client id>:<secret>", source);
      }
      return t.isPresent() || c.isPresent()
          ? Optional.of(new Secret(t.orElse(null), c.orElse(null)))
          : Optional.empty();
    }
  }

  /** A resolved connection: a token, or a credential to get one with. */
  record Connection(URI uri, String token, String credential, String scope, String warehouse) {}
}
