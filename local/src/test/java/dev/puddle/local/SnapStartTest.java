package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.puddle.contract.Route;
import java.io.IOException;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.crac.Resource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * SnapStart priming, measured in-process. Each scenario loads the function into a fresh {@link
 * IsolatedRuntime}, as a new execution environment would, wires a read and a write handler from
 * environment variables, and, when primed, calls their {@code beforeCheckpoint} and {@code
 * afterRestore} hooks as SnapStart does. Then it sends the first {@code loadTable} and the first
 * commit, against the twin's PostgreSQL and S3, with a token the twin issued to its root principal:
 * the functions verify it with the key the twin published in the metastore, as deployed functions
 * verify the token function's.
 *
 * <p>It asserts that, after priming, the first requests load no class of the function or its
 * libraries; and prints first-request latency with priming, without, and warm, as ratios (a
 * measurement, not asserted: timings vary). JDK classes are shared with the test JVM, so the
 * unprimed numbers are kinder than a real cold start.
 *
 * <p>{@code -Dpuddle.writePrimingClasses=true} rewrites {@code priming-classes.txt} from what a
 * broader workload loads.
 */
// reports init and request times beside its class counts: runs alone (local/pom.xml, alone-tests)
@Tag("timing")
class SnapStartTest {
  private static final Path CLASS_LIST =
      Path.of(System.getProperty("puddle.events.dir", "../events"))
          .resolveSibling("functions/src/main/resources/dev/puddle/functions/priming-classes.txt");

  private static String warehouse;
  private static String token;

  /** What one scenario measured. */
  record Scenario(
      double initMillis,
      Request firstLoad,
      Request firstCommit,
      double warmLoadMillis,
      double warmCommitMillis,
      IsolatedRuntime runtime) {}

  /** One request: its latency, and the classes it loaded (function's, and JVM-wide). */
  record Request(double millis, int functionClasses, long jvmClasses) {}

  @BeforeAll
  static void createTable() {
    warehouse = TestTwin.newWarehouse("snapstart");
    token = TestTwin.rootToken();
    RequestStreamHandler setup = handler(IsolatedRuntime.ofClassPath(), "write");
    expect(invoke(setup, Route.CREATE_NAMESPACE, Map.of(), "{\"namespace\":[\"sales\"]}"), 200);
    expect(
        invoke(setup, Route.CREATE_TABLE, Map.of("namespace", "sales"), createTable("orders")),
        200);
  }

  @Test
  void afterPrimingTheFirstRequestsLoadNoClassAndTheRatiosAreReported() throws Exception {
    if (Boolean.getBoolean("puddle.writePrimingClasses")) {
      writeClassList();
    }
    Scenario unprimed = scenario(false);
    Scenario primed = scenario(true);

    report("unprimed", unprimed);
    report("primed", primed);
    System.out.printf(
        Locale.ROOT,
        "[snapstart] first loadTable / warm: primed %.1fx, unprimed %.1fx (primed / unprimed"
            + " %.2f)%n[snapstart] first commit / warm:    primed %.1fx, unprimed %.1fx (primed /"
            + " unprimed %.2f)%n",
        primed.firstLoad().millis() / primed.warmLoadMillis(),
        unprimed.firstLoad().millis() / unprimed.warmLoadMillis(),
        primed.firstLoad().millis() / unprimed.firstLoad().millis(),
        primed.firstCommit().millis() / primed.warmCommitMillis(),
        unprimed.firstCommit().millis() / unprimed.warmCommitMillis(),
        primed.firstCommit().millis() / unprimed.firstCommit().millis());

    assertThat(unprimed.firstLoad().functionClasses()).isGreaterThan(100);
    assertThat(primed.firstLoad().functionClasses())
        .as("classes the first loadTable after priming loaded")
        .isZero();
    assertThat(primed.firstCommit().functionClasses())
        .as("classes the first commit after priming loaded")
        .isZero();
  }

  private static Scenario scenario(boolean prime) throws Exception {
    IsolatedRuntime runtime = IsolatedRuntime.ofClassPath();
    long start = System.nanoTime();
    RequestStreamHandler read = handler(runtime, "read");
    double initMillis = (System.nanoTime() - start) / 1e6;
    RequestStreamHandler write = handler(runtime, "write");
    if (prime) {
      for (RequestStreamHandler handler : List.of(read, write)) {
        inRuntimeOf(handler, () -> hook(() -> ((Resource) handler).beforeCheckpoint(null)));
      }
      for (RequestStreamHandler handler : List.of(read, write)) {
        inRuntimeOf(handler, () -> hook(() -> ((Resource) handler).afterRestore(null)));
      }
    }
    Request firstLoad = measure(runtime, () -> expect(load(read), 200));
    Request firstCommit = measure(runtime, () -> expect(commit(write), 200));
    List<Double> loads = new ArrayList<>();
    List<Double> commits = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      loads.add(measure(runtime, () -> expect(load(read), 200)).millis());
      commits.add(measure(runtime, () -> expect(commit(write), 200)).millis());
    }
    return new Scenario(
        initMillis, firstLoad, firstCommit, fastest(loads), fastest(commits), runtime);
  }

  private static Request measure(IsolatedRuntime runtime, Runnable request) {
    ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
    int before = runtime.loadedCount();
    long jvmBefore = classes.getTotalLoadedClassCount();
    long start = System.nanoTime();
    request.run();
    double millis = (System.nanoTime() - start) / 1e6;
    return new Request(
        millis, runtime.loadedCount() - before, classes.getTotalLoadedClassCount() - jvmBefore);
  }

  private static void report(String name, Scenario scenario) {
    System.out.printf(
        Locale.ROOT,
        "[snapstart] %-8s init %.0f ms | first loadTable %.1f ms (%d function classes, %d JVM-wide)"
            + " | first commit %.1f ms (%d, %d) | warm loadTable %.2f ms, commit %.2f ms%n",
        name,
        scenario.initMillis(),
        scenario.firstLoad().millis(),
        scenario.firstLoad().functionClasses(),
        scenario.firstLoad().jvmClasses(),
        scenario.firstCommit().millis(),
        scenario.firstCommit().functionClasses(),
        scenario.firstCommit().jvmClasses(),
        scenario.warmLoadMillis(),
        scenario.warmCommitMillis());
  }

  /**
   * The class list priming loads: everything a fresh runtime loads while it serves a broad workload
   * of real requests, connection set-up and S3 writes included.
   */
  private static void writeClassList() throws IOException {
    IsolatedRuntime runtime = IsolatedRuntime.ofClassPath();
    RequestStreamHandler read = handler(runtime, "read");
    RequestStreamHandler write = handler(runtime, "write");
    String table = "workload_" + System.nanoTime();
    Map<String, String> ns = Map.of("namespace", "sales");
    Map<String, String> t = Map.of("namespace", "sales", "table", table);
    invoke(read, Route.GET_CONFIG, Map.of(), null);
    invoke(read, Route.LIST_NAMESPACES, Map.of(), null);
    invoke(read, Route.LOAD_NAMESPACE, ns, null);
    invoke(read, Route.NAMESPACE_EXISTS, ns, null);
    invoke(write, Route.CREATE_TABLE, ns, createTable(table));
    invoke(read, Route.LIST_TABLES, ns, null);
    invoke(read, Route.TABLE_EXISTS, t, null);
    invoke(read, Route.LOAD_TABLE, t, null);
    invoke(write, Route.UPDATE_TABLE, t, setProperty("v"));
    invoke(
        write,
        Route.COMMIT_TRANSACTION,
        Map.of(),
        "{\"table-changes\":[{\"identifier\":{\"namespace\":[\"sales\"],\"name\":\""
            + table
            + "\"},"
            + setProperty("w").substring(1)
            + "]}");
    invoke(write, Route.UPDATE_NAMESPACE_PROPERTIES, ns, "{\"updates\":{\"k\":\"v\"}}");
    invoke(
        write,
        Route.RENAME_TABLE,
        Map.of(),
        "{\"source\":{\"namespace\":[\"sales\"],\"name\":\""
            + table
            + "\"},"
            + "\"destination\":{\"namespace\":[\"sales\"],\"name\":\""
            + table
            + "_2\"}}");
    invoke(write, Route.DROP_TABLE, Map.of("namespace", "sales", "table", table + "_2"), null);
    load(read);
    commit(write);
    StringBuilder list =
        new StringBuilder(
            "# Classes SnapStart priming loads: written by SnapStartTest with"
                + " -Dpuddle.writePrimingClasses=true\n");
    runtime.loaded().forEach(name -> list.append(name).append('\n'));
    Files.writeString(CLASS_LIST, list, StandardCharsets.UTF_8);
  }

  private static Invocations.Answer load(RequestStreamHandler read) {
    return invoke(read, Route.LOAD_TABLE, Map.of("namespace", "sales", "table", "orders"), null);
  }

  private static Invocations.Answer commit(RequestStreamHandler write) {
    return invoke(
        write,
        Route.UPDATE_TABLE,
        Map.of("namespace", "sales", "table", "orders"),
        setProperty("at-" + System.nanoTime()));
  }

  private static Invocations.Answer invoke(
      RequestStreamHandler handler, Route route, Map<String, String> path, String body) {
    Map<String, String> all = new HashMap<>(path);
    all.put("prefix", warehouse);
    return inRuntimeOf(
        handler,
        () ->
            Invocations.invoke(
                handler,
                Invocations.event(
                    route,
                    all,
                    body,
                    Map.of("accept-encoding", "gzip", "authorization", "Bearer " + token)),
                new LocalContext("snapstart")));
  }

  /**
   * Runs with the handler's runtime as the thread's context class loader, as Lambda runs a
   * function: libraries (Iceberg's dynamic constructors) load classes through it.
   */
  private static <T> T inRuntimeOf(Object handler, java.util.function.Supplier<T> work) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(handler.getClass().getClassLoader());
    try {
      return work.get();
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  private static RequestStreamHandler handler(IsolatedRuntime runtime, String group) {
    LocalTwin twin = TestTwin.get();
    Map<String, String> env = new HashMap<>();
    env.put("PUDDLE_FUNCTION_GROUP", group);
    env.put("PUDDLE_DB_URL", twin.jdbcUrl());
    env.put("PUDDLE_DEFAULT_WAREHOUSE", warehouse);
    env.put("PUDDLE_S3_ENDPOINT", twin.s3Endpoint());
    env.put("PUDDLE_S3_ACCESS_KEY_ID", LocalS3.ACCESS_KEY_ID);
    env.put("PUDDLE_S3_SECRET_ACCESS_KEY", LocalS3.SECRET_ACCESS_KEY);
    env.put("AWS_REGION", LocalS3.REGION);
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(runtime);
    try {
      Class<?> type = Class.forName("dev.puddle.functions.CatalogHandler", true, runtime);
      return (RequestStreamHandler) type.getConstructor(Map.class).newInstance(env);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    } finally {
      thread.setContextClassLoader(previous);
    }
  }

  private static String createTable(String name) {
    return "{\"name\":\""
        + name
        + "\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
        + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}";
  }

  private static String setProperty(String value) {
    return "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
        + "\"updates\":{\"k\":\""
        + value
        + "\"}}]}";
  }

  private static Invocations.Answer expect(Invocations.Answer answer, int status) {
    assertThat(answer.status()).as("%s", answer.body()).isEqualTo(status);
    return answer;
  }

  /** A CRaC hook call. */
  @FunctionalInterface
  private interface Hook {
    void call() throws Exception;
  }

  private static Void hook(Hook hook) {
    try {
      hook.call();
      return null;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Warm latency: the fastest of several, the least disturbed by the rest of the JVM. */
  private static double fastest(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
  }
}
