package dev.puddle.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A profile: the {@code uri}, {@code credential} or {@code token}, {@code warehouse} and {@code
 * scope} of one catalog, in {@code <config dir>/puddle/profiles/<name>.properties}. The config
 * directory is {@code $XDG_CONFIG_HOME}, or {@code ~/.config}. Since a profile holds a secret, one
 * that others may read or write (any mode but 0600 where the file system has POSIX modes) is
 * refused rather than used.
 */
final class Profile {
  static final String DEFAULT = "default";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");
  private static final Set<String> KEYS =
      Set.of("uri", "credential", "token", "warehouse", "scope");

  private final Path file;
  private final Properties values;

  private Profile(Path file, Properties values) {
    this.file = file;
    this.values = values;
  }

  /** The file of a profile, given the process's environment. */
  static Path file(String name, Map<String, String> env) {
    if (!NAME.matcher(name).matches()) {
      throw CliException.usage(
          "Invalid profile name '%s': use letters, digits, '.', '_' and '-'", name);
    }
    String xdg = env.get("XDG_CONFIG_HOME");
    Path config =
        xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute()
            ? Path.of(xdg)
            : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".config");
    return config.resolve("puddle").resolve("profiles").resolve(name + ".properties");
  }

  /**
   * The profile of that name; empty if its file does not exist. {@code required}: a profile named
   * on the command line or in {@code PUDDLE_PROFILE} must exist.
   */
  static Optional<Profile> load(String name, Map<String, String> env, boolean required) {
    Path file = file(name, env);
    try {
      checkMode(file);
      Properties values = new Properties();
      try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        values.load(reader);
      }
      for (String key : values.stringPropertyNames()) {
        if (!KEYS.contains(key)) {
          throw CliException.usage(
              "Unknown key '%s' in profile %s: use uri, credential, token, warehouse, scope",
              key, file);
        }
      }
      return Optional.of(new Profile(file, values));
    } catch (NoSuchFileException e) {
      if (required) {
        throw CliException.usage("No profile '%s': %s does not exist", name, file);
      }
      return Optional.empty();
    } catch (IOException e) {
      throw CliException.usage("Cannot read profile %s: %s", file, e.getMessage());
    }
  }

  private static void checkMode(Path file) throws IOException {
    Set<PosixFilePermission> mode;
    try {
      mode = Files.getPosixFilePermissions(file);
    } catch (UnsupportedOperationException e) {
      return; // no POSIX modes here (Windows): the user profile folder's ACL protects it
    }
    if (!mode.equals(OWNER_ONLY)) {
      throw CliException.usage(
          "Profile %s is not private (mode %s): it holds a secret; run chmod 600 %s",
          file, PosixFilePermissions.toString(mode), file);
    }
  }

  Optional<String> get(String key) {
    return Optional.ofNullable(values.getProperty(key))
        .map(String::strip)
        .filter(v -> !v.isEmpty());
  }

  Path file() {
    return file;
  }
}
