package dev.puddle.local;

import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.metastore.access.Principals;
import dev.puddle.core.metastore.access.RealmBootstrap;
import dev.puddle.functions.RequestLog;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.apache.iceberg.exceptions.BadRequestException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code java -jar puddle-local.jar}: runs the local twin until SIGTERM or Ctrl-C. */
@Command(
    name = "puddle-local",
    mixinStandardHelpOptions = true,
    description =
        "Runs Puddle on this machine: embedded PostgreSQL, S3 and SQS, the catalog on HTTP.")
public final class PuddleLocal implements Callable<Integer> {
  @Option(names = "--port", description = "Catalog HTTP port (default: ${DEFAULT-VALUE}).")
  int port = 8181;

  @Option(names = "--s3-port", description = "Embedded S3 port (default: ${DEFAULT-VALUE}).")
  int s3Port = 9000;

  @Option(names = "--sqs-port", description = "Embedded SQS port (default: ${DEFAULT-VALUE}).")
  int sqsPort = 9324;

  @Option(
      names = "--pg-port",
      description = "Embedded PostgreSQL port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int postgresPort = 0;

  @Option(
      names = "--data-dir",
      description = "Where PostgreSQL and S3 keep data (default: ${DEFAULT-VALUE}).")
  Path dataDirectory = Path.of("puddle-data");

  /** How the line per request reads. */
  enum LogFormat {
    /** Time, method, path, status, latency and principal, for people. */
    TEXT,
    /** CloudWatch's Embedded Metric Format, as the functions write it on Lambda. */
    JSON
  }

  @Option(
      names = "--log-format",
      description =
          "The line per request: text, for people, or json, CloudWatch's Embedded Metric Format"
              + " as on Lambda (default: text).")
  LogFormat logFormat = LogFormat.TEXT;

  /** How the catalog reaches the twin's PostgreSQL, as {@code PUDDLE_DB_MODE} chooses on AWS. */
  enum Metastore {
    /** Over JDBC, as the functions do with {@code PUDDLE_DB_MODE=jdbc}. */
    JDBC("jdbc"),
    /**
     * Through Puddle's RDS Data API adapter and the AWS SDK's client, against the twin's stand-in
     * for the Data API ({@link LocalDataApi}), as the functions do with {@code
     * PUDDLE_DB_MODE=data-api}.
     */
    DATA_API("data-api");

    private final String name;

    Metastore(String name) {
      this.name = name;
    }

    /** The name on the command line, which picocli also accepts. */
    @Override
    public String toString() {
      return name;
    }
  }

  @Option(
      names = "--metastore",
      paramLabel = "jdbc|data-api",
      description =
          "How the catalog reaches the embedded PostgreSQL: jdbc, or data-api, through the RDS"
              + " Data API client and a local stand-in for the Data API that keeps its limits"
              + " (1 MiB responses, 64 KB rows, 4 MiB requests, one statement per call)"
              + " (default: ${DEFAULT-VALUE}).")
  Metastore metastore = Metastore.JDBC;

  @Option(names = "--bind", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
  String bind = "127.0.0.1";

  @Option(
      names = "--root-credential",
      paramLabel = "ID:SECRET",
      defaultValue = "${env:PUDDLE_ROOT_CREDENTIAL}",
      description =
          "Client id and secret of the root principal; a different one than root has rotates it"
              + " (default: the environment variable PUDDLE_ROOT_CREDENTIAL, else generated on"
              + " first start).")
  String rootCredential;

  @Option(
      names = "--rebuild",
      description =
          "Rebuild an empty metastore from the warehouse and the latest catalog export, print the"
              + " report and exit (see docs/operations.md#rebuild-from-the-warehouse).")
  boolean rebuild;

  @Option(
      names = "--force",
      description =
          "With --rebuild: run over a metastore that is not empty, adding what is missing.")
  boolean force;

  @Spec CommandSpec spec;

  /** The credential of {@code --root-credential}, split at its first colon; null if none. */
  private PrincipalCredential rootCredential() {
    if (rootCredential == null || rootCredential.isEmpty()) {
      return null;
    }
    int colon = rootCredential.indexOf(':');
    if (colon <= 0 || colon == rootCredential.length() - 1) {
      throw new ParameterException(
          spec.commandLine(), "--root-credential must be ID:SECRET, e.g. root:a-long-secret");
    }
    try {
      return Principals.check(
          new PrincipalCredential(
              rootCredential.substring(0, colon), rootCredential.substring(colon + 1)));
    } catch (BadRequestException e) {
      throw new ParameterException(spec.commandLine(), "--root-credential: " + e.getMessage());
    }
  }

  /**
   * Tells the user how to authenticate as root. A generated secret is printed once, when the realm
   * is created: only its hash is kept, so later starts can show the client id only.
   */
  private static void printRoot(RealmBootstrap.Result root) {
    System.out.println(
        switch (root.outcome()) {
          case CREATED ->
              root.generatedSecret() == null
                  ? "Root principal created with the --root-credential given. Client id: "
                      + root.clientId()
                  : "Root credential (shown only now, keep it): credential="
                      + root.clientId()
                      + ":"
                      + root.generatedSecret();
          case ROTATED ->
              "Root credential set to the --root-credential given. Client id: " + root.clientId();
          case UNCHANGED ->
              "Root client id: "
                  + root.clientId()
                  + " (its secret was printed when it was created; --root-credential ID:SECRET"
                  + " sets a new one)";
        });
  }

  /** Which metastore mode runs, and where the Data API stand-in listens in data-api mode. */
  private static void printMetastore(LocalTwin twin) {
    System.out.println(
        twin.metastoreConnections() instanceof LocalDataApiConnections dataApi
            ? "Metastore: data-api, through the RDS Data API client and the twin's stand-in for"
                + " the Data API at "
                + dataApi.dataApi().uri()
            : "Metastore: jdbc, " + twin.jdbcUrl());
  }

  /** Connection snippets, root's secret in them only where {@link #printRoot} shows it. */
  private static void printSnippets(LocalTwin twin) {
    RealmBootstrap.Result root = twin.root();
    ConnectionSnippets snippets =
        new ConnectionSnippets(twin.clientProperties(), root.clientId(), root.generatedSecret());
    System.out.println();
    System.out.println("Spark:");
    System.out.println(snippets.spark().indent(2).stripTrailing());
    System.out.println();
    System.out.println("PyIceberg:");
    System.out.println(snippets.pyIceberg().indent(2).stripTrailing());
    if (root.generatedSecret() == null) {
      System.out.println();
      System.out.println(
          "  (" + ConnectionSnippets.SECRET_PLACEHOLDER + ": " + root.clientId() + "'s secret)");
    }
  }

  public static void main(String[] args) {
    System.exit(
        new CommandLine(new PuddleLocal()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
  }

  @Override
  public Integer call() throws InterruptedException {
    PrincipalCredential root = rootCredential();
    LocalTwin.Options options =
        new LocalTwin.Options(
            dataDirectory,
            bind,
            port,
            s3Port,
            postgresPort,
            sqsPort,
            LocalPurge.Options.DEFAULTS,
            root,
            LocalPostgres.Durability.DURABLE,
            switch (logFormat) {
              case TEXT -> RequestLog.text(System.out, ZoneId.systemDefault());
              case JSON -> RequestLog.embeddedMetrics("Puddle", System.out);
            });
    LocalTwin twin =
        switch (metastore) {
          case JDBC -> LocalTwin.start(options);
          case DATA_API -> LocalTwin.start(options, LocalDataApiConnections::start);
        };
    if (rebuild) {
      try (twin) {
        var report = twin.recovery().rebuild(force);
        System.out.println(report.toPrettyString());
        return report.has("error") ? 1 : 0;
      }
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.out.println("Puddle: stopping");
                  twin.close();
                  stopped.countDown();
                },
                "puddle-shutdown"));

    System.out.println("Puddle is running. Catalog URI: " + twin.uri());
    System.out.println("Client properties:");
    twin.clientProperties().forEach((key, value) -> System.out.println("  " + key + "=" + value));
    System.out.println(
        "Purge queue: "
            + twin.purge().queues().url()
            + " (SQS at "
            + twin.purge().sqs().endpoint()
            + ")");
    printMetastore(twin);
    System.out.println("Data directory: " + dataDirectory.toAbsolutePath());
    printRoot(twin.root());
    System.out.println("Press Ctrl-C to stop.");
    printSnippets(twin);
    System.out.println();
    stopped.await();
    return 0;
  }
}
