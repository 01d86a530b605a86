package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.puddle.contract.Route;
import dev.puddle.functions.HttpApiEvent;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shaded Lambda artifact ({@code functions/target/puddle-functions.jar}) on its own: it is at
 * most 25 MB, holds no Netty or Apache HTTP client (only the part of httpcore5 Iceberg's {@code
 * Endpoint} reaches), and each handler class, started in a JVM of its own from environment
 * variables with nothing else on the class path, serves its events against the twin's PostgreSQL
 * and S3, verifying their token (the twin's root's) with the key the twin published there. Prints
 * the jar's size and each handler's init time (class load to ready, in that JVM). Runs in the
 * integration-test phase, after the jar is built.
 */
class ShadedJarIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path JAR =
      Path.of(System.getProperty("puddle.events.dir", "../events"))
          .resolveSibling("functions/target/puddle-functions.jar");

  private static String warehouse;
  private static String token;

  @TempDir static Path events;

  @BeforeAll
  static void setUp() {
    warehouse = TestTwin.newWarehouse("shaded");
    token = TestTwin.rootToken();
  }

  @Test
  void theArtifactIsSmallAndHoldsNoNettyNorApacheClient() throws IOException {
    long size = Files.size(JAR);
    System.out.printf(Locale.ROOT, "[artifact] %s: %.1f MB%n", JAR.getFileName(), size / 1048576.0);
    // 24.8 MB, minimised and without KMS, the commons jars and the async clients (issue 23; see
    // docs/development/lambda-jar.md)
    assertThat(size).isLessThanOrEqualTo(25_000_000L);
    List<String> forbidden = new ArrayList<>();
    try (ZipFile zip = new ZipFile(JAR.toFile())) {
      for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
        String name = entries.nextElement().getName();
        if (name.startsWith("io/netty/")
            || name.startsWith("org/apache/hc/client5/")
            || name.startsWith("org/apache/hc/core5/http2/")
            || name.startsWith("org/apache/http/")
            || name.startsWith("software/amazon/awssdk/http/apache")
            || name.startsWith("software/amazon/awssdk/http/nio/netty")
            || name.startsWith("org/junit/")
            || name.startsWith("org/assertj/")
            || name.startsWith("io/zonky/")
            || name.startsWith("org/gaul/")) {
          forbidden.add(name);
        }
      }
    }
    assertThat(forbidden).isEmpty();
  }

  @Test
  void theCatalogHandlerServesReadsAndWritesFromTheJarAlone() throws Exception {
    List<String> writes =
        run(
            "dev.puddle.functions.CatalogHandler",
            environment("write"),
            event(Route.CREATE_NAMESPACE, Map.of(), "{\"namespace\":[\"sales\"]}"),
            event(Route.CREATE_TABLE, Map.of("namespace", "sales"), createTable()),
            event(Route.UPDATE_TABLE, Map.of("namespace", "sales", "table", "orders"), commit()));
    List<String> reads =
        run(
            "dev.puddle.functions.CatalogHandler",
            environment("read"),
            event(Route.GET_CONFIG, Map.of(), null),
            event(Route.LOAD_TABLE, Map.of("namespace", "sales", "table", "orders"), null),
            event(Route.UPDATE_TABLE, Map.of("namespace", "sales", "table", "orders"), commit()));

    assertThat(statuses(writes)).containsExactly(200, 200, 200);
    // the read function refuses the commit: it reached the wrong function
    assertThat(statuses(reads)).containsExactly(200, 200, 403);
    System.out.printf(
        Locale.ROOT,
        "[init] CatalogHandler (write): %s ms, first requests %s%n"
            + "[init] CatalogHandler (read): %s ms, first requests %s%n",
        initMillis(writes),
        latencies(writes),
        initMillis(reads),
        latencies(reads));
  }

  @Test
  void theMigrationHandlerMigratesFromTheJarAlone() throws Exception {
    String database = "shaded_" + System.nanoTime();
    TestTwin.get()
        .database()
        .autocommit(
            connection -> {
              try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE " + database);
              }
              return null;
            });
    HttpServer cloudFormation =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
    cloudFormation.createContext(
        "/",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    cloudFormation.start();
    try {
      ObjectNode event =
          (ObjectNode)
              JSON.readTree(
                  JAR.resolveSibling("../../events/custom-resource/migrate-create.json")
                      .normalize()
                      .toFile());
      event.put("ResponseURL", "http://127.0.0.1:" + cloudFormation.getAddress().getPort() + "/r");
      Path file = events.resolve("migrate.json");
      Files.writeString(file, event.toString(), StandardCharsets.UTF_8);
      Map<String, String> env = new HashMap<>();
      env.put("PUDDLE_FUNCTION_GROUP", "migrate");
      env.put(
          "PUDDLE_DB_URL",
          TestTwin.get().jdbcUrl().replaceFirst("/postgres\\?", "/" + database + "?"));

      List<String> output = run("dev.puddle.functions.MigrationHandler", env, file);

      JsonNode answer = JSON.readTree(responses(output).getFirst());
      assertThat(answer.get("Status").asText()).isEqualTo("SUCCESS");
      // every script: as many as the twin's own, fully migrated metastore records
      assertThat(answer.at("/Data/AppliedScripts").asInt()).isEqualTo(migrationsOfTheTwin());
      System.out.printf(
          Locale.ROOT,
          "[init] MigrationHandler: %s ms, migration %s%n",
          initMillis(output),
          latencies(output));
    } finally {
      cloudFormation.stop(0);
    }
  }

  private static int migrationsOfTheTwin() {
    return TestTwin.get()
        .database()
        .read(
            connection -> {
              try (Statement statement = connection.createStatement();
                  ResultSet rs = statement.executeQuery("SELECT count(*) FROM schema_migration")) {
                rs.next();
                return rs.getInt(1);
              }
            });
  }

  /** Runs the handler class in a JVM of its own; returns the runner's output lines. */
  private static List<String> run(String handler, Map<String, String> env, Path... eventFiles)
      throws IOException, InterruptedException {
    assertThat(JAR).as("built by the functions module's package phase").exists();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(JAR + File.pathSeparator + testClasses());
    command.add(ShadedJarRunner.class.getName());
    command.add(handler);
    for (Path file : eventFiles) {
      command.add(file.toString());
    }
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().clear();
    builder.environment().putAll(env);
    builder.redirectError(ProcessBuilder.Redirect.appendTo(events.resolve("stderr.txt").toFile()));
    // to a file, not a pipe: reading a pipe would wait for a hung child forever
    Path stdout = events.resolve("stdout.txt");
    builder.redirectOutput(stdout.toFile());
    Process process = builder.start();
    boolean exited;
    try {
      exited = process.waitFor(60, TimeUnit.SECONDS);
    } finally {
      process.destroyForcibly();
    }
    List<String> lines = Files.readString(stdout, StandardCharsets.UTF_8).lines().toList();
    assertThat(exited).isTrue();
    assertThat(process.exitValue())
        .as("%s%n%s", lines, Files.readString(events.resolve("stderr.txt")))
        .isZero();
    return lines;
  }

  /** This class's own directory of compiled test classes, for the runner. */
  private static String testClasses() {
    try {
      return Path.of(
              ShadedJarRunner.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, String> environment(String group) {
    LocalTwin twin = TestTwin.get();
    Map<String, String> env = new HashMap<>();
    env.put("PUDDLE_FUNCTION_GROUP", group);
    env.put("PUDDLE_DB_URL", twin.jdbcUrl());
    env.put("PUDDLE_DEFAULT_WAREHOUSE", warehouse);
    env.put("PUDDLE_S3_ENDPOINT", twin.s3Endpoint());
    env.put("PUDDLE_S3_ACCESS_KEY_ID", LocalS3.ACCESS_KEY_ID);
    env.put("PUDDLE_S3_SECRET_ACCESS_KEY", LocalS3.SECRET_ACCESS_KEY);
    env.put("AWS_REGION", LocalS3.REGION);
    return env;
  }

  private static Path event(Route route, Map<String, String> path, String body) throws IOException {
    Map<String, String> all = new HashMap<>(path);
    all.put("prefix", warehouse);
    HttpApiEvent event =
        Invocations.event(
            route,
            all,
            body,
            Map.of("accept-encoding", "gzip", "authorization", "Bearer " + token));
    Path file = Files.createTempFile(events, route.operationId(), ".json");
    JSON.writeValue(file.toFile(), event);
    return file;
  }

  private static String createTable() {
    return "{\"name\":\"orders\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
        + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}";
  }

  private static String commit() {
    return "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
        + "\"updates\":{\"k\":\"v\"}}]}";
  }

  private static List<String> responses(List<String> lines) {
    return lines.stream()
        .filter(line -> line.startsWith("response "))
        .map(line -> line.substring(line.indexOf(' ', "response ".length()) + 1))
        .toList();
  }

  private static List<Integer> statuses(List<String> lines) throws IOException {
    List<Integer> statuses = new ArrayList<>();
    for (String response : responses(lines)) {
      statuses.add(JSON.readTree(response).get("statusCode").asInt());
    }
    return statuses;
  }

  private static String initMillis(List<String> lines) {
    return lines.stream()
        .filter(line -> line.startsWith("init "))
        .findFirst()
        .map(line -> line.substring("init ".length()))
        .orElseThrow();
  }

  private static List<String> latencies(List<String> lines) {
    return lines.stream()
        .filter(line -> line.startsWith("response "))
        .map(line -> line.split(" ")[1] + " ms")
        .toList();
  }
}
