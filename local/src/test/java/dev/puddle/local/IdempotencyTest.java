package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.contract.Route;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.PostgresConnections;
import dev.puddle.functions.CatalogHandler;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Iceberg REST {@code Idempotency-Key}: a mutation takes effect at most once per key, and any
 * function instance replays its first response, because keys live in PostgreSQL. Each test talks to
 * two handlers with their own metastore connections, as two Lambda instances would.
 */
class IdempotencyTest {
  private Database firstDatabase;
  private Database secondDatabase;
  private CatalogHandler first;
  private CatalogHandler second;
  private String warehouse;

  @BeforeEach
  void setUp() {
    warehouse = TestTwin.newWarehouse("idempotency");
    firstDatabase = TestTwin.ownDatabase();
    secondDatabase = TestTwin.ownDatabase();
    first = TestTwin.rootHandler(firstDatabase, warehouse);
    second = TestTwin.rootHandler(secondDatabase, warehouse);
    expect(send(first, Route.CREATE_NAMESPACE, Map.of(), "{\"namespace\":[\"sales\"]}", null), 200);
    expect(send(first, Route.CREATE_TABLE, Map.of("namespace", "sales"), createTable(), null), 200);
  }

  @AfterEach
  void tearDown() {
    firstDatabase.close();
    secondDatabase.close();
  }

  @Test
  void theLifetimeIsAdvertisedInConfig() {
    Invocations.Answer config =
        Invocations.invoke(
            first, Invocations.event(Route.GET_CONFIG, Map.of(), null, Map.of()), null);

    assertThat(config.json().get("idempotency-key-lifetime").asText()).isEqualTo("PT30M");
  }

  @Test
  void aRetryOnAnotherInstanceReplaysTheFirstResponseAndChangesNothing() {
    UUID key = UUID.randomUUID();
    Invocations.Answer committed = send(first, Route.UPDATE_TABLE, table(), setProperty("v1"), key);
    expect(committed, 200);
    // someone else commits in between: a replay must not undo it by applying v1 again
    expect(send(first, Route.UPDATE_TABLE, table(), setProperty("v2"), UUID.randomUUID()), 200);

    Invocations.Answer replayed = send(second, Route.UPDATE_TABLE, table(), setProperty("v1"), key);

    expect(replayed, 200);
    assertThat(replayed.body()).isEqualTo(committed.body());
    assertThat(replayed.headers().get("ETag")).isEqualTo(committed.headers().get("ETag"));
    assertThat(currentProperty()).isEqualTo("v2");
  }

  @Test
  void aDeterministicClientErrorIsReplayedToo() {
    UUID key = UUID.randomUUID();
    String body = "{\"namespace\":[\"sales\"]}";
    expect(send(first, Route.CREATE_NAMESPACE, Map.of(), body, key), 409);
    expect(send(first, Route.DROP_TABLE, table(), null, null), 204);
    expect(send(first, Route.DROP_NAMESPACE, Map.of("namespace", "sales"), null, null), 204);

    Invocations.Answer replayed = send(second, Route.CREATE_NAMESPACE, Map.of(), body, key);

    expect(replayed, 409);
    assertThat(replayed.errorType()).isEqualTo("AlreadyExistsException");
  }

  @Test
  void theSameKeyWithAnotherRequestIsRefused() {
    UUID key = UUID.randomUUID();
    expect(send(first, Route.UPDATE_TABLE, table(), setProperty("v1"), key), 200);

    Invocations.Answer refused = send(second, Route.UPDATE_TABLE, table(), setProperty("v2"), key);

    expect(refused, 422);
    assertThat(refused.errorType()).isEqualTo("UnprocessableEntityException");
    assertThat(currentProperty()).isEqualTo("v1");
  }

  @Test
  void aKeyExpiresAfterItsLifetime() throws SQLException {
    UUID key = UUID.randomUUID();
    expect(send(first, Route.UPDATE_TABLE, table(), setProperty("v1"), key), 200);
    age(key, "30 minutes 1 second");

    expect(send(second, Route.UPDATE_TABLE, table(), setProperty("v2"), key), 200);

    assertThat(currentProperty()).isEqualTo("v2");
  }

  @Test
  void aCommitThatAnswered503IsRetriedWithItsKeyAndLandsOnce() throws SQLException {
    UUID key = UUID.randomUUID();
    Invocations.Answer failed;
    try (Connection holder = lockTableRow()) {
      failed =
          Invocations.invoke(
              first,
              Invocations.event(
                  Route.UPDATE_TABLE, path(table()), setProperty("v1"), keyHeader(key)),
              new LocalContext("short", java.time.Duration.ofSeconds(3)));
      holder.rollback();
    }
    expect(failed, 503);

    Invocations.Answer retried = send(second, Route.UPDATE_TABLE, table(), setProperty("v1"), key);
    Invocations.Answer again = send(first, Route.UPDATE_TABLE, table(), setProperty("v1"), key);

    expect(retried, 200);
    assertThat(again.body()).isEqualTo(retried.body());
    assertThat(currentProperty()).isEqualTo("v1");
    assertThat(metadataLogSize()).as("one commit after the create").isEqualTo(1);
  }

  @Test
  void twoAttemptsAtOnceApplyTheChangeOnce() throws Exception {
    UUID key = UUID.randomUUID();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (Connection holder = lockTableRow()) {
      // both attempts reach the commit's row lock, on two instances, before either can change
      // anything: the claim, in each change's own transaction, decides which one lands
      Future<Invocations.Answer> one =
          pool.submit(() -> send(first, Route.UPDATE_TABLE, table(), setProperty("v1"), key));
      awaitWaitingOn(holder, 1);
      Future<Invocations.Answer> other =
          pool.submit(() -> send(second, Route.UPDATE_TABLE, table(), setProperty("v1"), key));
      awaitWaitingOn(holder, 2);
      holder.rollback();

      List<Integer> statuses = List.of(one.get().status(), other.get().status());
      // the other attempt waits for the one that landed, then replays it or is told to retry
      assertThat(statuses).contains(200).allMatch(status -> status == 200 || status == 503);
    } finally {
      pool.shutdownNow();
    }
    assertThat(metadataLogSize()).as("one commit after the create").isEqualTo(1);
    expect(send(second, Route.UPDATE_TABLE, table(), setProperty("v1"), key), 200);
    assertThat(metadataLogSize()).isEqualTo(1);
    assertThat(currentProperty()).isEqualTo("v1");
  }

  @Test
  void aCreateIsReplayedFromTheResponseStoredInItsOwnTransaction() {
    UUID key = UUID.randomUUID();
    String create = createTable().replace("\"orders\"", "\"events\"");
    Invocations.Answer created =
        send(first, Route.CREATE_TABLE, Map.of("namespace", "sales"), create, key);
    expect(created, 200);
    // the key holds the response as the create's transaction committed it, with nothing after
    // COMMIT (OperationCostTest counts the statements): a function that died right after the
    // commit would leave it so
    assertThat(keyRows(key, "status = 200 AND applied AND body IS NOT NULL")).isEqualTo(1);

    Invocations.Answer replayed =
        send(second, Route.CREATE_TABLE, Map.of("namespace", "sales"), create, key);
    Invocations.Answer other =
        send(second, Route.CREATE_TABLE, Map.of("namespace", "sales"), createTable(), key);

    expect(replayed, 200);
    assertThat(replayed.body()).isEqualTo(created.body());
    assertThat(replayed.headers().get("ETag")).isEqualTo(created.headers().get("ETag"));
    expect(other, 422);
  }

  @Test
  void aCommitDeletesLongExpiredKeysInItsClaim() {
    UUID old = UUID.randomUUID();
    expect(send(first, Route.UPDATE_TABLE, table(), setProperty("v1"), old), 200);
    age(old, "2 hours");

    expect(send(second, Route.UPDATE_TABLE, table(), setProperty("v2"), UUID.randomUUID()), 200);

    assertThat(keyRows(old, "true")).as("the long-expired key").isZero();
  }

  @Test
  void aKeyWhoseChangeLandedButWhoseResponseWasLostIsNotAppliedAgain() throws SQLException {
    UUID key = UUID.randomUUID();
    expect(send(first, Route.UPDATE_TABLE, table(), setProperty("v1"), key), 200);
    expect(send(first, Route.UPDATE_TABLE, table(), setProperty("v2"), UUID.randomUUID()), 200);
    // as a change whose response is stored after its commit (one the committed version does not
    // decide), or an earlier version, leaves the key if the function dies between the two
    TestTwin.admin(
        "UPDATE idempotency_key SET status = NULL, lease_until = now() - interval '1 second'"
            + " WHERE key = '"
            + key
            + "'");

    Invocations.Answer retried = send(second, Route.UPDATE_TABLE, table(), setProperty("v1"), key);

    expect(retried, 500);
    assertThat(retried.errorType()).isEqualTo("CommitStateUnknownException");
    assertThat(currentProperty()).isEqualTo("v2");
  }

  @Test
  void anInvalidKeyIsABadRequest() {
    Invocations.Answer answer =
        Invocations.invoke(
            first,
            Invocations.event(
                Route.UPDATE_TABLE,
                path(table()),
                setProperty("v1"),
                Map.of("idempotency-key", "not-a-uuid")),
            null);

    expect(answer, 400);
  }

  private Invocations.Answer send(
      CatalogHandler handler, Route route, Map<String, String> path, String body, UUID key) {
    return Invocations.invoke(
        handler,
        Invocations.event(route, path(path), body, key == null ? Map.of() : keyHeader(key)),
        null);
  }

  private Map<String, String> path(Map<String, String> parameters) {
    Map<String, String> all = new java.util.HashMap<>(parameters);
    all.put("prefix", warehouse);
    return all;
  }

  private static Map<String, String> keyHeader(UUID key) {
    return Map.of("idempotency-key", key.toString());
  }

  private static Map<String, String> table() {
    return Map.of("namespace", "sales", "table", "orders");
  }

  private static String createTable() {
    return "{\"name\":\"orders\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
        + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}";
  }

  private static String setProperty(String value) {
    return "{\"requirements\":[],\"updates\":[{\"action\":\"set-properties\","
        + "\"updates\":{\"k\":\""
        + value
        + "\"}}]}";
  }

  private static void expect(Invocations.Answer answer, int status) {
    assertThat(answer.status()).as("%s %s", answer.headers(), answer.body()).isEqualTo(status);
  }

  private String currentProperty() {
    Invocations.Answer loaded =
        Invocations.invoke(
            first, Invocations.event(Route.LOAD_TABLE, path(table()), null, Map.of()), null);
    return loaded.json().at("/metadata/properties/k").asText();
  }

  private int metadataLogSize() {
    Invocations.Answer loaded =
        Invocations.invoke(
            first, Invocations.event(Route.LOAD_TABLE, path(table()), null, Map.of()), null);
    return loaded.json().at("/metadata/metadata-log").size();
  }

  private Connection lockTableRow() throws SQLException {
    Connection holder = PostgresConnections.factory(TestTwin.get().jdbcUrl(), null, null).open();
    holder.setAutoCommit(false);
    try (PreparedStatement statement =
        holder.prepareStatement(
            "SELECT o.id FROM catalog_object o JOIN warehouse w ON w.id = o.warehouse_id"
                + " WHERE w.name = ? AND o.name = 'orders' FOR UPDATE OF o")) {
      statement.setString(1, warehouse);
      try (ResultSet rs = statement.executeQuery()) {
        assertThat(rs.next()).isTrue();
      }
    }
    return holder;
  }

  /** Waits until {@code count} other sessions wait, directly or not, for {@code holder}. */
  private static void awaitWaitingOn(Connection holder, int count) throws Exception {
    int holderPid;
    try (PreparedStatement statement = holder.prepareStatement("SELECT pg_backend_pid()");
        ResultSet rs = statement.executeQuery()) {
      rs.next();
      holderPid = rs.getInt(1);
    }
    try (Connection watcher =
        PostgresConnections.factory(TestTwin.get().jdbcUrl(), null, null).open()) {
      long giveUp = System.nanoTime() + java.time.Duration.ofSeconds(30).toNanos();
      while (true) {
        try (PreparedStatement statement =
            watcher.prepareStatement(
                // a later waiter for a row lock waits on the first waiter, not the holder
                "WITH RECURSIVE waiting (pid) AS (SELECT pid FROM pg_stat_activity"
                    + " WHERE ? = ANY (pg_blocking_pids(pid))"
                    + " UNION SELECT a.pid FROM pg_stat_activity a JOIN waiting w"
                    + " ON w.pid = ANY (pg_blocking_pids(a.pid)))"
                    + " SELECT count(*) FROM waiting")) {
          statement.setInt(1, holderPid);
          try (ResultSet rs = statement.executeQuery()) {
            rs.next();
            if (rs.getInt(1) >= count) {
              return;
            }
          }
        }
        assertThat(System.nanoTime()).as("sessions waiting on the lock").isLessThan(giveUp);
        Thread.onSpinWait();
      }
    }
  }

  /** How many rows of {@code key} match {@code condition} (counted by a no-op update). */
  private static int keyRows(UUID key, String condition) {
    return TestTwin.admin(
        "UPDATE idempotency_key SET key = key WHERE key = '" + key + "' AND " + condition);
  }

  private static void age(UUID key, String interval) {
    TestTwin.admin(
        "UPDATE idempotency_key SET created_at = created_at - interval '"
            + interval
            + "' WHERE key = '"
            + key
            + "'");
  }
}
