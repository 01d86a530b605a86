package dev.puddle.functions;

import dev.puddle.contract.EnvironmentVariable;
import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.metastore.CatalogExport;
import dev.puddle.core.metastore.CatalogRestore;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.recovery.ExportStore;
import dev.puddle.core.recovery.Rebuild;
import dev.puddle.core.recovery.WarehouseScan;
import java.time.Clock;
import java.util.Map;

/** Wires the catalog export and the rebuild from environment variables, once per environment. */
final class RecoveryEnvironment {
  private RecoveryEnvironment() {}

  static CatalogExportHandler exportHandler(Map<String, String> env) {
    Environment environment = new Environment(env);
    Database database = environment.database();
    return new CatalogExportHandler(
        new CatalogExport(database), exports(environment), Clock.systemUTC());
  }

  static RebuildHandler rebuildHandler(Map<String, String> env) {
    Environment environment = new Environment(env);
    S3Objects s3 = s3(environment);
    return new RebuildHandler(
        new Rebuild(
            new CatalogRestore(environment.database()),
            new WarehouseScan(s3),
            new ExportStore(s3, environment.required(EnvironmentVariable.EXPORT_LOCATION))));
  }

  private static ExportStore exports(Environment environment) {
    return new ExportStore(
        s3(environment), environment.required(EnvironmentVariable.EXPORT_LOCATION));
  }

  private static S3Objects s3(Environment environment) {
    return new S3Objects(S3Objects.client(environment.storage().clientProperties()));
  }
}
