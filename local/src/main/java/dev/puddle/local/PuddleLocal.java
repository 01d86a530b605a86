package dev.puddle.local;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

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

  @Option(names = "--pg-port", description = "Embedded PostgreSQL port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int postgresPort = 0;

  @Option(names = "--data-dir", description = "Where PostgreSQL and S3 keep data (default: ${DEFAULT-VALUE}).")
  Path dataDirectory = Path.of("puddle-data");

  @Option(names = "--bind", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
  String bind = "127.0.0.1";

  public static void main(String[] args) {
    System.exit(new CommandLine(new PuddleLocal()).execute(args));
  }

  @Override
  public Integer call() throws InterruptedException {
    LocalTwin twin =
        LocalTwin.start(
            new LocalTwin.Options(
                dataDirectory,
                bind,
                port,
                s3Port,
                postgresPort,
                sqsPort,
                LocalPurge.Options.DEFAULTS));
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
        "Purge queue: " + twin.purge().queues().url() + " (SQS at " + twin.purge().sqs().endpoint() + ")");
    System.out.println("Data directory: " + dataDirectory.toAbsolutePath());
    System.out.println("Press Ctrl-C to stop.");
    stopped.await();
    return 0;
  }
}
