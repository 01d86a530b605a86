package dev.puddle.core.metastore;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Applies the schema migrations in {@code migrations/} in order, each once: a script {@code
 * V<n>__<name>.sql} is recorded as version n, and every script whose version is not recorded yet
 * runs, so a script merged in after a later one still runs. Runs at deploy time and at local-server
 * start, never on a cold start. All of it happens in one transaction under a transaction-scoped
 * advisory lock, so concurrent runs wait for each other and a failed run leaves nothing
 * half-applied.
 *
 * <p>Migrations only go up: a schema that records a version newer than the newest script here (an
 * older release run against the schema a newer one migrated) is refused (a {@link
 * SchemaVersionCheck#tooNew 503}) and left as it is. Scripts only expand the schema (new tables,
 * new nullable or defaulted columns, no drops, renames or type changes of what an earlier release
 * reads), so the release before a migration, still serving from its warm execution environments
 * while a deploy replaces it, keeps working on the migrated schema; {@code
 * docs/operations.md#upgrade-and-rollback} states the rule, {@code MigrationScriptsTest} enforces
 * it.
 */
public final class Migrations {
  /**
   * Migration scripts, oldest first. Listed rather than discovered: a class loader can open a
   * resource by name but cannot list a folder, least of all inside the shaded jar a function runs
   * from, and a script that is not listed would be silently skipped. {@code MigrationsTest} fails
   * when a file of the folder is missing here.
   */
  static final List<String> SCRIPTS =
      List.of(
          "V1__catalog.sql",
          "V2__purge.sql",
          "V3__idempotency.sql",
          "V4__access.sql",
          "V5__signing_keys.sql",
          "V6__read_functions.sql",
          "V7__access_version.sql",
          "V8__scan_planning.sql",
          "V9__maintenance.sql",
          "V10__soft_delete.sql",
          "V11__events.sql",
          "V12__scan_plan_jobs.sql",
          "V15__statement_timeout_ceiling.sql",
          "V16__listing_with_access.sql",
          "V17__one_access_read.sql",
          "V18__write_functions.sql",
          "V19__listing_names_in_one_row.sql",
          "V20__event_insert_function.sql");

  private static final int LOCK_CLASS = 0x70646c65; // "pdle"
  private static final int LOCK_MIGRATIONS = 1;

  private Migrations() {}

  /** Migrates the schema to the newest version and returns the number of scripts applied. */
  public static int migrate(Database database) {
    return migrate(database, newest());
  }

  /**
   * Migrates the schema up to version {@code target} (the scripts of later versions are left for a
   * later run) and returns the number of scripts applied: the upgrade tests build the schema of
   * every earlier release this way.
   *
   * @throws org.apache.iceberg.exceptions.ServiceUnavailableException if the schema records a
   *     version newer than this release's newest script; nothing is changed then
   */
  public static int migrate(Database database, int target) {
    return database.transaction(
        connection -> {
          try (PreparedStatement lock =
              connection.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) {
            lock.setInt(1, LOCK_CLASS);
            lock.setInt(2, LOCK_MIGRATIONS);
            lock.execute();
          }
          try (Statement statement = connection.createStatement()) {
            statement.execute(
                "CREATE TABLE IF NOT EXISTS schema_migration ("
                    + " version integer PRIMARY KEY,"
                    + " script text NOT NULL,"
                    + " applied_at timestamptz NOT NULL DEFAULT now())");
          }
          Set<Integer> recorded = new HashSet<>();
          try (Statement statement = connection.createStatement();
              ResultSet rs = statement.executeQuery("SELECT version FROM schema_migration")) {
            while (rs.next()) {
              recorded.add(rs.getInt(1));
            }
          }
          int highest = recorded.stream().max(Integer::compare).orElse(0);
          if (highest > newest()) {
            // rolled back by the throw: not even schema_migration is touched
            throw SchemaVersionCheck.tooNew(highest, newest());
          }
          int applied = 0;
          for (String script : SCRIPTS) {
            int version = version(script);
            if (recorded.contains(version) || version > target) {
              continue;
            }
            try (Statement statement = connection.createStatement()) {
              statement.execute(read(script));
            }
            try (PreparedStatement record =
                connection.prepareStatement(
                    "INSERT INTO schema_migration (version, script) VALUES (?, ?)")) {
              record.setInt(1, version);
              record.setString(2, script);
              record.executeUpdate();
            }
            applied++;
          }
          return applied;
        });
  }

  /** The version of this release's newest script: the schema version it is written for. */
  public static int newest() {
    return version(SCRIPTS.getLast());
  }

  /** This release's scripts, oldest first. */
  public static List<String> scripts() {
    return SCRIPTS;
  }

  /** The n of {@code V<n>__name.sql}. */
  public static int version(String script) {
    return Integer.parseInt(script.substring(1, script.indexOf("__")));
  }

  private static String read(String script) {
    try (InputStream in = Migrations.class.getResourceAsStream("migrations/" + script)) {
      if (in == null) {
        throw new IllegalStateException("Missing migration script: " + script);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
