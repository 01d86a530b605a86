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
 * The read handler's cold init: a new JVM on a functions jar (the Lambda artifact, as Lambda runs
 * it) constructs {@code CatalogHandler} from environment variables (the twin's PostgreSQL and S3)
 * and answers one {@code loadTable} event; timed from process spawn to its answer. Given several
 * jars (this checkout's and a peer's, e.g. one built from another commit), it starts them in turn,
 * jar after jar in each round, so both meet the same machine.
 */
public final class ColdInit {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SAMPLE_EVENT = "/dev/puddle/bench/events/loadTable.json";
  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  /** C1 only, which favours start-up: Lambda's Java 17+ runtimes stop tiering at level 1. */
  private static final List<String> LAMBDA_JVM_OPTIONS =
      List.of("-XX:+TieredCompilation", "-XX:TieredStopAtLevel=1");

  private final Path coldInitJar;
  private final PuddleTwin twin;
  private final Path runDirectory;

  /**
   * @param coldInitJar the jar of {@link ColdInitMain}, put before each functions jar
   */
  public ColdInit(Path coldInitJar, PuddleTwin twin, Path runDirectory) {
    this.coldInitJar = coldInitJar;
    this.twin = twin;
    this.runDirectory = runDirectory;
  }

  /** One cold init: from process spawn to the answer, and the classes loaded by then. */
  public record Sample(Duration time, long classes) {}

  /**
   * Starts {@code times} JVMs on each of {@code functionsJars}, interleaved; returns each jar's
   * samples, in the order of the jars.
   */
  public List<List<Sample>> measure(List<Path> functionsJars, TableIdentifier table, int times) {
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
    List<List<Sample>> durations = new ArrayList<>();
    functionsJars.forEach(jar -> durations.add(new ArrayList<>()));
    for (int i = 1; i <= times; i++) {
      for (int j = 0; j < functionsJars.size(); j++) {
        durations.get(j).add(once(functionsJars.get(j), event, env, "cold-init-" + j + "-" + i));
      }
    }
    return durations;
  }

  private Sample once(Path functionsJar, Path event, Map<String, String> env, String name) {
    List<String> arguments = new ArrayList<>(LAMBDA_JVM_OPTIONS);
    arguments.addAll(
        List.of(
            "-cp",
            coldInitJar + File.pathSeparator + functionsJar,
            ColdInitMain.class.getName(),
            event.toString()));
    try (ChildJvm jvm =
        ChildJvm.start(
            name,
            arguments,
            env,
            runDirectory.resolve("logs/" + name + ".log"),
            line -> line.startsWith(ColdInitMain.DONE))) {
      ChildJvm.Signal done = jvm.awaitSignal(TIMEOUT);
      String[] answer =
          done.line().substring(ColdInitMain.DONE.length()).strip().split(ColdInitMain.CLASSES);
      if (!answer[0].equals("200")) {
        throw new IllegalStateException(
            "The cold loadTable on " + functionsJar + " answered " + answer[0] + ", not 200");
      }
      return new Sample(done.sinceSpawn(), Long.parseLong(answer[1].strip()));
    }
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
