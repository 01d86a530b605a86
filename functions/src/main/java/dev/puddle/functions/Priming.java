package dev.puddle.functions;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.contract.FunctionGroup;
import dev.puddle.contract.Route;
import dev.puddle.core.auth.JwtAuthenticator;
import dev.puddle.core.auth.PrimingIssuer;
import dev.puddle.core.rest.ErrorMapper;
import dev.puddle.core.rest.PayloadPriming;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Set;

/**
 * SnapStart priming, run in {@code beforeCheckpoint}: afterwards the snapshot holds what the first
 * request after a restore would otherwise load and initialize. It makes no network call and writes
 * nothing:
 *
 * <ol>
 *   <li>sets up what the function makes on first use (the S3FileIO, the SigV4 signer);
 *   <li>loads (without initializing) the classes listed in {@code priming-classes.txt}: those a
 *       reference workload of real requests loads, connection set-up and S3 writes included, which
 *       no request can reach without the network;
 *   <li>sends the sample event of every route of the function's groups through the real handler,
 *       with the metastore's connection factory shut, so each runs its event parsing, routing,
 *       authentication, idempotency and error paths and fails where it would first need the
 *       database; their log lines are muted. The events carry a token of a {@link PrimingIssuer}
 *       made for this run, which the function's authenticator trusts only while they replay: the
 *       token is verified as any other, and once priming ends it, its issuer and key are refused;
 *   <li>runs the payload work after the database ({@link PayloadPriming}): authorization on canned
 *       grants, metadata parsing, updates, responses.
 * </ol>
 */
final class Priming {
  static final String CLASS_LIST = "priming-classes.txt";
  private static final String EVENTS = "events/";
  private static final String PRIMING_KEY = "0190b6f4-0000-7000-8000-000000000000";

  /** Built when priming runs, not when a function's wiring makes its {@code Priming}. */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private final CatalogFunction function;
  private final Set<FunctionGroup> groups;
  private final ConnectionGate gate;
  private final JwtAuthenticator authenticator;
  private final String realm;
  private final Runnable lazyParts;

  /**
   * @param lazyParts sets up the parts a function makes on first use rather than at init (the
   *     S3FileIO, the SigV4 signer), none with a network call. Deferring them shortens a plain cold
   *     start, whose first request may need none of them (a {@code loadTable} reads no file and
   *     signs nothing); with SnapStart, init's time is paid before the snapshot, where it costs no
   *     request anything, so priming makes them all, and a restored function finds them ready as it
   *     did when they were made at init.
   */
  Priming(
      CatalogFunction function,
      Set<FunctionGroup> groups,
      ConnectionGate gate,
      JwtAuthenticator authenticator,
      String realm,
      Runnable lazyParts) {
    this.function = function;
    this.groups = groups;
    this.gate = gate;
    this.authenticator = authenticator;
    this.realm = realm;
    this.lazyParts = lazyParts;
  }

  /** A new issuer for one priming run, bound to the function's realm. */
  PrimingIssuer newIssuer() {
    return PrimingIssuer.generate(realm, Clock.systemUTC());
  }

  /**
   * Primes with {@code issuer}'s token, trusted until the events are replayed; returns how many
   * classes were loaded, events replayed, and of those needing a token how many were refused it
   * (none, unless priming no longer reaches past authentication).
   */
  String run(PrimingIssuer issuer) {
    lazyParts.run();
    int classes = loadClasses();
    int events = 0;
    int unauthenticated = 0;
    JwtAuthenticator.TemporaryTrust trust = authenticator.trustTemporarily(issuer.trusted());
    gate.shut();
    function.log().mute(true);
    try {
      String authorization = "Bearer " + issuer.token();
      int[] counts = new int[2];
      ErrorMapper.whilePriming(
          () -> {
            for (Route route : Route.values()) {
              if (!groups.contains(route.group())) {
                continue;
              }
              HttpApiResponse response = replay(route, authorization);
              if (response != null) {
                counts[0]++;
                if (route.requiresAuthentication() && response.statusCode() == 401) {
                  counts[1]++;
                }
              }
            }
          });
      events = counts[0];
      unauthenticated = counts[1];
      PayloadPriming.run();
    } finally {
      trust.close();
      function.log().mute(false);
      gate.reopen();
    }
    return classes
        + " classes loaded, "
        + events
        + " canned requests replayed, "
        + unauthenticated
        + " refused as unauthenticated";
  }

  /** The function's answer to the route's sample event, or null if the route has none. */
  private HttpApiResponse replay(Route route, String authorization) {
    try (InputStream in =
        Priming.class.getResourceAsStream(EVENTS + route.operationId() + ".json")) {
      if (in == null) {
        return null;
      }
      ObjectNode event = (ObjectNode) Json.MAPPER.readTree(in);
      ObjectNode headers = (ObjectNode) event.get("headers");
      if (route.requiresAuthentication()) {
        headers.put("authorization", authorization);
      }
      if (route.group() == FunctionGroup.WRITE) {
        headers.put("idempotency-key", PRIMING_KEY);
      }
      // through the handler's own reading and writing of events, which a request needs primed
      HttpApiResponse response =
          function.handle(
              HttpApiJson.read(new ByteArrayInputStream(Json.MAPPER.writeValueAsBytes(event))),
              null);
      HttpApiJson.write(response, OutputStream.nullOutputStream());
      return response;
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
