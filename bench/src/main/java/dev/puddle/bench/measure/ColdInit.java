package dev.puddle.bench.measure;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.bench.coldinit.ColdInitMain;
import dev.puddle.bench.process.ChildJvm;
import dev.puddle.bench.process.PuddleTwin;
import dev.puddle.contract.EnvironmentVariable;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The read handler's cold init: a new JVM on the functions module's class path constructs {@code
 * CatalogHandler} from environment variables (the twin's PostgreSQL and S3) and answers one {@code
 * loadTable} event; timed from process spawn to its answer.
 */
public final class ColdInit {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SAMPLE_EVENT = "/dev/puddle/bench/events/loadTable.json";
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  /** C1 only, which favours start-up: Lambda's Java 17+ runtimes stop tiering at level 1. */
  private static final List<String> LAMBDA_JVM_OPTIONS =
      List.of("-XX:+TieredCompilation", "-XX:TieredStopAtLevel=1");

  private final List<String> classPath;
  private final PuddleTwin twin;
  private final Path runDirectory;

  /**
   * @param classPath the cold-init jar and the functions module's runtime class path
   */
  public ColdInit(List<Path> classPath, PuddleTwin twin, Path runDirectory) {
    this.classPath = classPath.stream().map(Path::toString).toList();
    this.twin = twin;
    this.runDirectory = runDirectory;
  }

  /** Starts {@code times} JVMs one after another; returns each one's time to its answer. */
  public List<Duration> measure(TableIdentifier table, int times) {
    Path event = writeEvent(table);
    Map<String, String> env =
        Map.of(
            EnvironmentVariable.FUNCTION_GROUP.key(),
            "read",
            EnvironmentVariable.DB_URL.key(),
            twin.jdbcUrl("postgres"),
            EnvironmentVariable.DB_USER.key(),
            "postgres",
            EnvironmentVariable.S3_ENDPOINT.key(),
            twin.s3Endpoint(),
            EnvironmentVariable.S3_ACCESS_KEY_ID.key(),
            PuddleTwin.ACCESS_KEY_ID,
            EnvironmentVariable.S3_SECRET_ACCESS_KEY.key(),
            PuddleTwin.SECRET_ACCESS_KEY,
            EnvironmentVariable.REGION.key(),
            PuddleTwin.REGION);
    List<String> arguments = new ArrayList<>(LAMBDA_JVM_OPTIONS);
    arguments.addAll(
        List.of(
            "-cp",
            String.join(File.pathSeparator, classPath),
            ColdInitMain.class.getName(),
            event.toString()));
    List<Duration> durations = new ArrayList<>();
    for (int i = 1; i <= times; i++) {
      try (ChildJvm jvm =
          ChildJvm.start(
              "cold-init-" + i,
              arguments,
              env,
              runDirectory.resolve("logs/cold-init-" + i + ".log"),
              line -> line.startsWith(ColdInitMain.DONE))) {
        ChildJvm.Signal done = jvm.awaitSignal(TIMEOUT);
        String status = done.line().substring(ColdInitMain.DONE.length()).strip();
        if (!status.equals("200")) {
          throw new IllegalStateException("The cold loadTable answered " + status + ", not 200");
        }
        durations.add(done.sinceSpawn());
      }
    }
    return durations;
  }

  /** The repository's sample loadTable event, readdressed to {@code table} in the twin. */
  private Path writeEvent(TableIdentifier table) {
    try (InputStream sample = ColdInit.class.getResourceAsStream(SAMPLE_EVENT)) {
      ObjectNode event = (ObjectNode) JSON.readTree(sample);
      String path =
          "/v1/"
              + PuddleTwin.WAREHOUSE
              + "/namespaces/"
              + table.namespace()
              + "/tables/"
              + table.name();
      event.put("rawPath", path);
      ((ObjectNode) event.path("requestContext").path("http")).put("path", path);
      // a real engine's token, from the twin's issuer, whose keys the function finds in PostgreSQL
      ((ObjectNode) event.path("headers")).put("authorization", "Bearer " + twin.rootToken());
      ObjectNode parameters = (ObjectNode) event.path("pathParameters");
      parameters.put("prefix", PuddleTwin.WAREHOUSE);
      parameters.put("namespace", table.namespace().toString());
      parameters.put("table", table.name());
      Path file = runDirectory.resolve("cold-init-loadTable.json");
      JSON.writeValue(file.toFile(), event);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot prepare the cold-init event", e);
    }
  }
}
