package dev.puddle.engines.twin;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Puddle's local twin as a user runs it: {@code java -jar local/target/puddle-local.jar} in a child
 * JVM, on free loopback ports and a fresh data directory. Nothing of Puddle is on this JVM's class
 * path; what engines need (the catalog URI and the S3 properties) is read from what the twin prints
 * at start, root's credential is the one given to it in {@code PUDDLE_ROOT_CREDENTIAL}. It runs in
 * either of the twin's metastore modes ({@code --metastore}).
 */
public final class PuddleTwin implements AutoCloseable {
  /** How the twin's catalog reaches its PostgreSQL: the values of its {@code --metastore}. */
  public enum Metastore {
    /** Over JDBC. */
    JDBC("jdbc"),
    /** Through the RDS Data API client and the twin's stand-in for the Data API. */
    DATA_API("data-api");

    private final String option;

    Metastore(String option) {
      this.option = option;
    }

    /** The mode as the twin's {@code --metastore} names it, e.g. {@code data-api}. */
    public String option() {
      return option;
    }

    /** The mode of that {@code --metastore} name. */
    public static Metastore of(String option) {
      for (Metastore metastore : values()) {
        if (metastore.option.equals(option)) {
          return metastore;
        }
      }
      throw new IllegalArgumentException("No metastore mode " + option + ": jdbc or data-api");
    }
  }

  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  private static final String READY_LINE = "Press Ctrl-C to stop.";

  private static PuddleTwin shared;

  private final Process process;
  private final Path dataDirectory;
  private final String rootCredential;
  private final Map<String, String> clientProperties;

  private PuddleTwin(
      Process process,
      Path dataDirectory,
      String rootCredential,
      Map<String, String> clientProperties) {
    this.process = process;
    this.dataDirectory = dataDirectory;
    this.rootCredential = rootCredential;
    this.clientProperties = clientProperties;
  }

  /**
   * One twin for every test class of this JVM, stopped when the JVM exits. The jar is {@code
   * -Dpuddle.local.jar} (default {@code ../../local/target/puddle-local.jar}), the twin's output
   * goes to {@code -Dpuddle.twin.log} (default {@code target/puddle-twin.log}).
   */
  public static synchronized PuddleTwin shared() {
    if (shared == null) {
      shared = start();
      Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "puddle-twin-stop"));
    }
    return shared;
  }

  /** Starts a twin in JDBC mode, see {@link #start(Metastore)}. */
  public static PuddleTwin start() {
    return start(Metastore.JDBC);
  }

  /**
   * Starts a twin in the metastore mode given and waits until it says it is ready, with the
   * properties it printed.
   */
  public static PuddleTwin start(Metastore metastore) {
    Path jar =
        Path.of(System.getProperty("puddle.local.jar", "../../local/target/puddle-local.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          jar.toAbsolutePath() + " is missing: build the local module first (./mvnw package)");
    }
    try {
      Path data = Files.createTempDirectory("puddle-twin-");
      Path log = Path.of(System.getProperty("puddle.twin.log", "target/puddle-twin.log"));
      Files.createDirectories(log.toAbsolutePath().getParent());
      String credential = "trino-root:" + HexFormat.of().formatHex(randomBytes());
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-Xmx1g");
      command.add("-jar");
      command.add(jar.toAbsolutePath().toString());
      command.addAll(
          List.of(
              "--data-dir", data.toString(),
              "--bind", "127.0.0.1",
              "--port", freePort(),
              "--s3-port", freePort(),
              "--sqs-port", freePort(),
              "--pg-port", freePort(),
              "--metastore", metastore.option()));
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      builder.environment().put("PUDDLE_ROOT_CREDENTIAL", credential);
      Process process = builder.start();
      CompletableFuture<Map<String, String>> printed = new CompletableFuture<>();
      Thread pump = new Thread(() -> pump(process, log, printed), "puddle-twin-output");
      pump.setDaemon(true);
      pump.start();
      try {
        Map<String, String> properties = printed.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        return new PuddleTwin(process, data, credential, properties);
      } catch (ExecutionException | TimeoutException e) {
        process.destroyForcibly();
        throw new IllegalStateException("The twin did not start; see " + log.toAbsolutePath(), e);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Copies the twin's output to its log and collects the client properties it prints (indented
   * {@code key=value} lines after "Client properties:"), completed once it says it is ready.
   */
  private static void pump(Process process, Path log, CompletableFuture<Map<String, String>> out) {
    Map<String, String> properties = new LinkedHashMap<>();
    boolean inProperties = false;
    try (BufferedReader reader =
            new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8));
        PrintWriter writer = new PrintWriter(Files.newBufferedWriter(log, UTF_8), true)) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        // root's credential is the one this JVM gave it; keep no secret in the log
        writer.println(line.contains("credential=") ? "<root credential line>" : line);
        if (line.startsWith("Client properties:")) {
          inProperties = true;
        } else if (inProperties && line.startsWith("  ") && line.contains("=")) {
          int equals = line.indexOf('=');
          properties.put(line.substring(0, equals).strip(), line.substring(equals + 1).strip());
        } else {
          inProperties = false;
        }
        if (line.equals(READY_LINE)) {
          out.complete(Map.copyOf(properties));
        }
      }
      out.completeExceptionally(new IllegalStateException("The twin exited before it was ready"));
    } catch (IOException e) {
      out.completeExceptionally(e);
    }
  }

  private static byte[] randomBytes() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return bytes;
  }

  private static String freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return String.valueOf(socket.getLocalPort());
    }
  }

  /** The catalog's base URI, e.g. {@code http://127.0.0.1:41234}. */
  public String uri() {
    return clientProperties.get("uri");
  }

  /** The token endpoint engines sign in at. */
  public String tokenEndpoint() {
    return clientProperties.get("oauth2-server-uri");
  }

  /** Root's {@code <client id>:<secret>}. */
  public String rootCredential() {
    return rootCredential;
  }

  public String s3Endpoint() {
    return clientProperties.get("s3.endpoint");
  }

  public String s3AccessKeyId() {
    return clientProperties.get("s3.access-key-id");
  }

  public String s3SecretAccessKey() {
    return clientProperties.get("s3.secret-access-key");
  }

  public String region() {
    return clientProperties.getOrDefault("client.region", "us-east-1");
  }

  /** Everything the twin printed for engines, as Iceberg catalog properties. */
  public Map<String, String> clientProperties() {
    return clientProperties;
  }

  /**
   * Stops the twin as Ctrl-C would, which stops its PostgreSQL, and deletes its data. PostgreSQL
   * runs detached from the twin's JVM, so if the twin had to be killed, its postmaster is stopped
   * by the pid it recorded.
   */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        stopLeftoverPostgres();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try (Stream<Path> paths = Files.walk(dataDirectory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      System.err.println("Could not delete " + dataDirectory + ": " + e.getMessage());
    }
  }

  private void stopLeftoverPostgres() {
    Path pidFile = dataDirectory.resolve("postgres/postmaster.pid");
    try {
      if (Files.exists(pidFile)) {
        long pid = Long.parseLong(Files.readAllLines(pidFile).getFirst().strip());
        ProcessHandle.of(pid)
            .filter(p -> p.info().command().orElse("").contains("postgres"))
            .ifPresent(ProcessHandle::destroy);
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("Could not check for a leftover PostgreSQL: " + e.getMessage());
    }
  }
}
