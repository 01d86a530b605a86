package dev.puddle.functions;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.core.api.FunctionGroup;
import dev.puddle.core.api.Route;
import dev.puddle.core.rest.PayloadPriming;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * SnapStart priming, run in {@code beforeCheckpoint}: afterwards the snapshot holds what the first
 * request after a restore would otherwise load and initialize. It makes no network call and writes
 * nothing:
 *
 * <ol>
 *   <li>loads (without initializing) the classes listed in {@code priming-classes.txt}: those a
 *       reference workload of real requests loads, connection set-up and S3 writes included, which
 *       no request can reach without the network;
 *   <li>sends the sample event of every route of the function's groups through the real handler,
 *       with the metastore's connection factory shut, so each runs its event parsing, routing,
 *       idempotency and error paths and fails where it would first need the database; their log
 *       lines are muted;
 *   <li>runs the payload work after the database ({@link PayloadPriming}): metadata parsing,
 *       updates, responses.
 * </ol>
 */
final class Priming {
  static final String CLASS_LIST = "priming-classes.txt";
  private static final String EVENTS = "events/";
  private static final String PRIMING_KEY = "0190b6f4-0000-7000-8000-000000000000";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final CatalogFunction function;
  private final Set<FunctionGroup> groups;
  private final ConnectionGate gate;

  Priming(CatalogFunction function, Set<FunctionGroup> groups, ConnectionGate gate) {
    this.function = function;
    this.groups = groups;
    this.gate = gate;
  }

  /** Primes; returns how many classes were loaded and events replayed, for the record. */
  String run() {
    int classes = loadClasses();
    int events = 0;
    gate.shut();
    function.log().mute(true);
    try {
      for (Route route : Route.values()) {
        if (groups.contains(route.group()) && replay(route)) {
          events++;
        }
      }
      PayloadPriming.run();
    } finally {
      function.log().mute(false);
      gate.reopen();
    }
    return classes + " classes loaded, " + events + " canned requests replayed";
  }

  private boolean replay(Route route) {
    try (InputStream in =
        Priming.class.getResourceAsStream(EVENTS + route.operationId() + ".json")) {
      if (in == null) {
        return false;
      }
      ObjectNode event = (ObjectNode) JSON.readTree(in);
      if (route.group() == FunctionGroup.WRITE) {
        ((ObjectNode) event.get("headers")).put("idempotency-key", PRIMING_KEY);
      }
      function.handle(JSON.treeToValue(event, HttpApiEvent.class), null);
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Loads each listed class that exists; a list older than the code only primes less. */
  private static int loadClasses() {
    InputStream list = Priming.class.getResourceAsStream(CLASS_LIST);
    if (list == null) {
      return 0;
    }
    ClassLoader loader = Priming.class.getClassLoader();
    int loaded = 0;
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(list, StandardCharsets.UTF_8))) {
      for (String name = reader.readLine(); name != null; name = reader.readLine()) {
        if (name.isBlank() || name.startsWith("#")) {
          continue;
        }
        try {
          Class.forName(name.trim(), false, loader);
          loaded++;
        } catch (ClassNotFoundException | LinkageError e) {
          // renamed or removed since the list was made: nothing to prime
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return loaded;
  }
}
