package dev.puddle.bench.process;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Puddle's local twin in a child JVM ({@code java -jar local/target/puddle-local.jar}): the
 * catalog, and the embedded PostgreSQL and S3 server that the reference server shares.
 */
public final class PuddleTwin implements AutoCloseable {
  /** The twin's fixed S3 settings (see the README's client properties). */
  public static final String BUCKET = "warehouse";

  public static final String ACCESS_KEY_ID = "puddle";
  public static final String SECRET_ACCESS_KEY = "puddle-local-secret";

  /** The credential of the twin's root principal, which the benchmark's clients sign in with. */
  public static final String ROOT_CLIENT_ID = "bench-root";

  public static final String ROOT_CLIENT_SECRET = "bench-root-secret";
  public static final String REGION = "us-east-1";

  /** The realm of the twin's warehouse, as the local twin makes it ({@code LocalTwin.REALM}). */
  public static final String REALM = "default";

  /** The twin's default warehouse and where it keeps its tables. */
  public static final String WAREHOUSE = "default";

  public static final String WAREHOUSE_LOCATION = "s3://" + BUCKET + "/" + WAREHOUSE;

  /** The database of the twin's PostgreSQL that holds its catalog. */
  public static final String DATABASE = "postgres";

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

  private final ChildJvm jvm;
  private final Path dataDirectory;
  private final int port;
  private final int s3Port;
  private final int postgresPort;
  private final int jmxPort;

  private PuddleTwin(
      ChildJvm jvm, Path dataDirectory, int port, int s3Port, int postgresPort, int jmxPort) {
    this.jvm = jvm;
    this.jmxPort = jmxPort;
    this.dataDirectory = dataDirectory;
    this.port = port;
    this.s3Port = s3Port;
    this.postgresPort = postgresPort;
  }

  /** A token of the twin's issuer for its root principal, as an engine would get one. */
  public String rootToken() {
    return token().orElseThrow(() -> new IllegalStateException("The twin refused a token"));
  }

  /** A token for the root principal, if the twin is there and gives one. */
  private Optional<String> token() {
    String form =
        "grant_type=client_credentials&scope=PRINCIPAL_ROLE%3AALL&client_id="
            + ROOT_CLIENT_ID
            + "&client_secret="
            + ROOT_CLIENT_SECRET;
    try {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(uri() + "/v1/oauth/tokens"))
                  .header("Content-Type", "application/x-www-form-urlencoded")
                  .timeout(Duration.ofSeconds(5))
                  .POST(HttpRequest.BodyPublishers.ofString(form))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        return Optional.empty();
      }
      return Optional.of(new ObjectMapper().readTree(response.body()).get("access_token").asText());
    } catch (IOException e) {
      return Optional.empty(); // not listening yet, or gone: the caller knows which
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Starts the twin on free loopback ports and waits until it gives its root principal a token.
   *
   * @param keepOutput whether its standard output, with a line per request, is kept in its log
   */
  public static PuddleTwin start(
      Path jar, List<String> jvmOptions, boolean keepOutput, Path runDirectory) {
    Path data = runDirectory.resolve("puddle-data");
    int port = FreePorts.next();
    int s3Port = FreePorts.next();
    int postgresPort = FreePorts.next();
    int sqsPort = FreePorts.next();
    int jmxPort = FreePorts.next();
    List<String> arguments =
        concat(
            concat(jvmOptions, jmx(jmxPort)),
            List.of(
                "-jar",
                jar.toString(),
                "--data-dir",
                data.toString(),
                "--bind",
                "127.0.0.1",
                "--port",
                String.valueOf(port),
                "--s3-port",
                String.valueOf(s3Port),
                "--pg-port",
                String.valueOf(postgresPort),
                "--sqs-port",
                String.valueOf(sqsPort)));
    ChildJvm jvm =
        ChildJvm.startServer(
            "puddle-local",
            arguments,
            Map.of("PUDDLE_ROOT_CREDENTIAL", ROOT_CLIENT_ID + ":" + ROOT_CLIENT_SECRET),
            runDirectory.resolve("logs/puddle-local.log"),
            keepOutput);
    PuddleTwin twin = new PuddleTwin(jvm, data, port, s3Port, postgresPort, jmxPort);
    try {
      // the twin listens before its root principal has the credential: a token says both are done
      jvm.awaitReady(() -> twin.token().isPresent(), START_TIMEOUT);
      return twin;
    } catch (RuntimeException e) {
      twin.close();
      throw e;
    }
  }

  public String uri() {
    return "http://127.0.0.1:" + port;
  }

  public String s3Endpoint() {
    return "http://127.0.0.1:" + s3Port;
  }

  /**
   * The twin's JMX connector, on loopback without authentication, so that the benchmark reads the
   * twin's own heap (its planning worker's, for one); see {@link
   * dev.puddle.bench.measure.TwinHeap}.
   */
  public String jmxUrl() {
    return "service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi";
  }

  /** The options of a JMX connector on loopback at {@code port}, its RMI objects on the same. */
  private static List<String> jmx(int port) {
    return List.of(
        "-Dcom.sun.management.jmxremote.port=" + port,
        "-Dcom.sun.management.jmxremote.rmi.port=" + port,
        "-Dcom.sun.management.jmxremote.host=127.0.0.1",
        "-Djava.rmi.server.hostname=127.0.0.1",
        "-Dcom.sun.management.jmxremote.authenticate=false",
        "-Dcom.sun.management.jmxremote.ssl=false");
  }

  public int postgresPort() {
    return postgresPort;
  }

  /** A JDBC URL of a database in the twin's PostgreSQL (user postgres, no password). */
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + postgresPort + "/" + database;
  }

  /**
   * Stops the twin, which stops its PostgreSQL. PostgreSQL runs detached from the twin's JVM
   * (pg_ctl starts it), so if the twin had to be killed, its postmaster is stopped here by the pid
   * it recorded.
   */
  @Override
  public void close() {
    jvm.close();
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

  static List<String> concat(List<String> first, List<String> second) {
    return Stream.concat(first.stream(), second.stream()).toList();
  }
}
