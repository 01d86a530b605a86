package dev.puddle.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.puddle.core.metastore.dataapi.DataApiConnections;
import dev.puddle.core.metastore.dataapi.SqlScanner;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.rdsdata.RdsDataClient;

/**
 * The twin's stand-in for the RDS Data API, on loopback: it speaks the service's REST-JSON protocol
 * to the AWS SDK's {@code RdsDataClient} ({@code ExecuteStatement}, {@code BeginTransaction},
 * {@code CommitTransaction}, {@code RollbackTransaction}) and runs the statements on the twin's
 * PostgreSQL ({@link LocalDataApiSessions}), one JDBC connection per {@code transactionId}. With
 * {@code --metastore data-api} the twin's catalog reaches its metastore through it with Puddle's
 * real adapter ({@link LocalDataApiConnections}), as a function does on AWS.
 *
 * <p>It enforces the service's limits as AWS documents them, so that the adapter meets them here
 * before it meets them in AWS: requests of at most 4 MiB, SQL of at most 65,536 characters, one
 * statement per call, no array parameters, result rows of at most 64 KB and responses of at most 1
 * MiB. Failed statements answer as the service does for Aurora PostgreSQL, a {@code
 * BadRequestException} whose message is PostgreSQL's ending in {@code ; SQLState: NNNNN}. It does
 * not check signatures, does not pause (a cluster at 0 ACU) nor time out transactions, and keeps no
 * limit on concurrent transactions.
 *
 * <p>It also has hooks for tests, which a twin started from the command line never calls: they
 * count calls by operation and measure the largest response (the adapter's cost and the limits it
 * keeps), make the next calls fail with {@code DatabaseResumingException} as a resuming cluster
 * does (its waiting), and run an action before a given call (a row changed between the calls of one
 * read).
 */
public final class LocalDataApi implements AutoCloseable {
  /** The Data API operations this endpoint serves. */
  public enum Operation {
    EXECUTE_STATEMENT("/Execute"),
    BEGIN_TRANSACTION("/BeginTransaction"),
    COMMIT_TRANSACTION("/CommitTransaction"),
    ROLLBACK_TRANSACTION("/RollbackTransaction");

    private final String path;

    Operation(String path) {
      this.path = path;
    }
  }

  private static final DataApiConnections.Target TARGET =
      new DataApiConnections.Target(
          "arn:aws:rds:us-east-1:123456789012:cluster:puddle-local",
          "arn:aws:secretsmanager:us-east-1:123456789012:secret:puddle-local-AbCdEf",
          null);

  /** The service's limits, as AWS documents them for the Data API. */
  static final int MAX_REQUEST_BYTES = 4 << 20;

  static final int MAX_RESPONSE_BYTES = 1 << 20;
  static final int MAX_ROW_BYTES = 64 * 1024;
  static final int MAX_SQL_LENGTH = 65_536;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService threads;
  private final LocalDataApiSessions sessions;
  private final AtomicInteger resuming = new AtomicInteger();

  /**
   * Every call served (or refused) so far, in the order received, each entered in one step with its
   * SQL: a copy of it counts calls and tells background statements apart in the same instant.
   */
  private final List<Call> log = new ArrayList<>();

  private final AtomicLong largestResponse = new AtomicLong();
  private final AtomicReference<PendingAction> pendingAction = new AtomicReference<>();

  private record PendingAction(AtomicInteger skip, Runnable action) {}

  /**
   * One call as this endpoint received it: its operation and, for a statement, its SQL (null
   * otherwise, or if the request could not be read).
   */
  public record Call(Operation operation, String sql) {
    /** Whether this is a statement whose SQL names {@code text}. */
    public boolean names(String text) {
      return sql != null && sql.contains(text);
    }
  }

  private LocalDataApi(HttpServer server, ExecutorService threads, LocalDataApiSessions sessions) {
    this.server = server;
    this.threads = threads;
    this.sessions = sessions;
  }

  /** Starts the stand-in on a free loopback port for the PostgreSQL at {@code jdbcUrl}. */
  public static LocalDataApi start(String jdbcUrl, String user) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    ExecutorService threads = Executors.newCachedThreadPool();
    server.setExecutor(threads);
    LocalDataApi endpoint =
        new LocalDataApi(server, threads, new LocalDataApiSessions(jdbcUrl, user));
    server.createContext("/", endpoint::handle);
    server.start();
    return endpoint;
  }

  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Metastore connections through this stand-in, with Puddle's adapter and the SDK client. */
  public DataApiConnections connections(DataApiConnections.Resume resume) {
    RdsDataClient client =
        DataApiConnections.client(
            "us-east-1",
            uri(),
            StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")));
    return new DataApiConnections(client, TARGET, resume);
  }

  /** Connections that wait out a resume as in production. */
  public DataApiConnections connections() {
    return connections(DataApiConnections.Resume.DEFAULT);
  }

  /**
   * Runs {@code action} just before the ExecuteStatement call after the next {@code skip} ones,
   * e.g. to change a row between the calls of one read.
   */
  public void beforeExecute(int skip, Runnable action) {
    pendingAction.set(new PendingAction(new AtomicInteger(skip), action));
  }

  /** Makes the next {@code count} calls fail with DatabaseResumingException. */
  public void resumeAfter(int count) {
    resuming.set(count);
  }

  /** How many of the calls {@link #resumeAfter} asked to refuse are still to come. */
  public int refusalsLeft() {
    return resuming.get();
  }

  /** Calls served (or refused) so far, by operation. */
  public Map<Operation, Long> calls() {
    return byOperation(callsSince(0));
  }

  /** The calls in {@code calls}, by operation (every operation present). */
  public static Map<Operation, Long> byOperation(List<Call> calls) {
    Map<Operation, Long> result = new EnumMap<>(Operation.class);
    for (Operation operation : Operation.values()) {
      result.put(operation, 0L);
    }
    calls.forEach(call -> result.merge(call.operation(), 1L, Long::sum));
    return result;
  }

  /** How many calls were received so far: a position in the log for {@link #callsSince}. */
  public int position() {
    synchronized (log) {
      return log.size();
    }
  }

  /**
   * The calls received since {@code position}, in order, each with its SQL: read in one step, so
   * that a call and its SQL are both in it or both not.
   */
  public List<Call> callsSince(int position) {
    synchronized (log) {
      return List.copyOf(log.subList(position, log.size()));
    }
  }

  /** Calls served so far, all operations together. */
  public long totalCalls() {
    return position();
  }

  /** The largest successful response body so far, in bytes. */
  public long largestResponse() {
    return largestResponse.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Operation operation = null;
      for (Operation candidate : Operation.values()) {
        if (candidate.path.equals(exchange.getRequestURI().getPath())) {
          operation = candidate;
        }
      }
      if (operation == null || !"POST".equals(exchange.getRequestMethod())) {
        error(exchange, 404, "UnknownOperationException", "No such operation");
        return;
      }
      byte[] body = read(exchange.getRequestBody());
      if (body == null) {
        enter(new Call(operation, null));
        error(exchange, 400, "BadRequestException", "Request size exceeds the 4 MiB limit");
        return;
      }
      JsonNode request;
      try {
        request = JSON.readTree(body);
      } catch (IOException e) {
        enter(new Call(operation, null));
        throw e;
      }
      enter(
          new Call(
              operation,
              // interned: a twin that runs for long keeps each text once, not once per call
              operation == Operation.EXECUTE_STATEMENT
                  ? request.path("sql").asText().intern()
                  : null));
      if (resuming.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        error(
            exchange,
            400,
            "DatabaseResumingException",
            "The Aurora DB instance is resuming after being auto-paused."
                + " Please wait a few seconds and try again.");
        return;
      }
      if (request.path("resourceArn").asText("").isEmpty()
          || request.path("secretArn").asText("").isEmpty()) {
        error(exchange, 400, "BadRequestException", "resourceArn and secretArn are required");
        return;
      }
      try {
        ObjectNode response =
            switch (operation) {
              case EXECUTE_STATEMENT -> execute(request);
              case BEGIN_TRANSACTION ->
                  JSON.createObjectNode().put("transactionId", sessions.begin());
              case COMMIT_TRANSACTION -> end(request, true);
              case ROLLBACK_TRANSACTION -> end(request, false);
            };
        byte[] bytes = JSON.writeValueAsBytes(response);
        if (bytes.length > MAX_RESPONSE_BYTES) {
          error(
              exchange,
              400,
              "BadRequestException",
              "Database returned more than the allowed response size limit");
          return;
        }
        largestResponse.accumulateAndGet(bytes.length, Math::max);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      } catch (Refused e) {
        error(exchange, e.status, e.type, e.getMessage());
      } catch (SQLException e) {
        // as the Data API reports PostgreSQL errors: the server's message, then its SQLSTATE
        error(
            exchange,
            400,
            "BadRequestException",
            e.getMessage() + "; SQLState: " + e.getSQLState());
      }
    }
  }

  private void enter(Call call) {
    synchronized (log) {
      log.add(call);
    }
  }

  private ObjectNode execute(JsonNode request) throws SQLException, Refused {
    PendingAction pending = pendingAction.get();
    if (pending != null
        && pending.skip().getAndDecrement() == 0
        && pendingAction.compareAndSet(pending, null)) {
      pending.action().run();
    }
    String sql = request.path("sql").asText("");
    if (sql.length() > MAX_SQL_LENGTH) {
      throw new Refused(400, "ValidationException", "sql must be at most 65536 characters");
    }
    if (SqlScanner.statements(sql).size() > 1) {
      throw new Refused(400, "BadRequestException", "Multistatements aren't supported.");
    }
    Map<String, JsonNode> parameters = new HashMap<>();
    for (JsonNode parameter : request.path("parameters")) {
      if (parameter.path("value").has("arrayValue")) {
        throw new Refused(400, "BadRequestException", "Array parameters are not supported.");
      }
      parameters.put(parameter.path("name").asText(), parameter);
    }
    String transactionId = transaction(request);
    List<String> names = new ArrayList<>();
    String positional = positional(sql, names);
    LocalDataApiSessions.Result result =
        sessions.execute(positional, names, parameters, transactionId);
    ObjectNode response = JSON.createObjectNode();
    ArrayNode records = response.putArray("records");
    for (List<ObjectNode> row : result.records()) {
      long size = 0;
      ArrayNode record = records.addArray();
      for (ObjectNode field : row) {
        size += size(field);
        record.add(field);
      }
      if (size > MAX_ROW_BYTES) {
        throw new Refused(
            400, "BadRequestException", "Database response exceeded the 64 KB row size limit");
      }
    }
    response.put("numberOfRecordsUpdated", result.updated());
    return response;
  }

  private ObjectNode end(JsonNode request, boolean commit) throws SQLException, Refused {
    String transactionId = transaction(request);
    if (transactionId == null || !sessions.end(transactionId, commit)) {
      throw new Refused(404, "TransactionNotFoundException", "Transaction not found");
    }
    return JSON.createObjectNode()
        .put("transactionStatus", commit ? "Transaction Committed" : "Rollback Complete");
  }

  private String transaction(JsonNode request) throws Refused {
    String transactionId = request.path("transactionId").asText(null);
    if (transactionId != null && !sessions.exists(transactionId)) {
      throw new Refused(
          404, "TransactionNotFoundException", "Transaction " + transactionId + " is not found");
    }
    return transactionId;
  }

  /** Replaces each {@code :name} by {@code ?}, noting the names in order. */
  private static String positional(String sql, List<String> names) {
    StringBuilder out = new StringBuilder();
    SqlScanner.scan(
        sql,
        new SqlScanner.Visitor() {
          @Override
          public void text(String text, int start, int end) {
            out.append(text, start, end);
          }

          @Override
          public void token(SqlScanner.Kind kind, String token) {
            if (kind == SqlScanner.Kind.NAMED) {
              names.add(token.substring(1));
              out.append('?');
            } else {
              out.append(token);
            }
          }
        });
    return out.toString();
  }

  /** A field's size in the database's terms: bytes of text or binary, eight for a number. */
  private static long size(JsonNode field) {
    Iterator<Map.Entry<String, JsonNode>> members = field.properties().iterator();
    if (!members.hasNext()) {
      return 0;
    }
    Map.Entry<String, JsonNode> member = members.next();
    return switch (member.getKey()) {
      case "stringValue" -> member.getValue().textValue().getBytes(StandardCharsets.UTF_8).length;
      case "blobValue" -> Base64.getDecoder().decode(member.getValue().textValue()).length;
      case "arrayValue" -> member.getValue().toString().length();
      default -> 8;
    };
  }

  /** The body, or null if it is larger than the service accepts. */
  private static byte[] read(InputStream in) throws IOException {
    byte[] bytes = in.readNBytes(MAX_REQUEST_BYTES + 1);
    return bytes.length > MAX_REQUEST_BYTES ? null : bytes;
  }

  private static void error(HttpExchange exchange, int status, String type, String message)
      throws IOException {
    byte[] bytes =
        JSON.writeValueAsBytes(JSON.createObjectNode().put("__type", type).put("message", message));
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.getResponseHeaders().set("x-amzn-ErrorType", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** A call the service refuses, with its HTTP status and error type. */
  private static final class Refused extends Exception {
    private final int status;
    private final String type;

    Refused(int status, String type, String message) {
      super(message);
      this.status = status;
      this.type = type;
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
    sessions.close();
  }
}
