package dev.puddle.core.vending;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * A test-only AWS STS on loopback speaking the service's Query protocol to the real SDK client: a
 * form-encoded {@code POST} with {@code Action=AssumeRole}, answered with an {@code
 * AssumeRoleResponse} XML document or an STS {@code ErrorResponse}. It validates what STS validates
 * (session name alphabet and length, duration bounds, a policy of at most 2,048 characters),
 * refuses roles it is told to refuse as STS refuses a role whose trust policy does not admit the
 * caller, and records every {@code AssumeRole} it serves. Credentials expire {@code
 * DurationSeconds} after the clock's now, unless a shorter lifetime is set. Signatures are not
 * checked; that a request is signed is.
 */
public final class StsTestEndpoint implements AutoCloseable {
  /** One {@code AssumeRole} as the endpoint received it. */
  public record AssumeRole(
      String roleArn, String sessionName, String policy, int durationSeconds) {}

  private static final Pattern SESSION_NAME = Pattern.compile("[\\w+=,.@-]{2,64}");
  private static final String NAMESPACE = "https://sts.amazonaws.com/doc/2011-06-15/";

  private final HttpServer server;
  private final Clock clock;
  private final List<AssumeRole> calls = new CopyOnWriteArrayList<>();
  private final Set<String> refusedRoles = ConcurrentHashMap.newKeySet();
  private volatile Duration lifetime;

  private StsTestEndpoint(HttpServer server, Clock clock) {
    this.server = server;
    this.clock = clock;
  }

  /** An endpoint whose credentials expire by {@code clock}. */
  public static StsTestEndpoint start(Clock clock) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
      StsTestEndpoint endpoint = new StsTestEndpoint(server, clock);
      server.createContext("/", endpoint::handle);
      server.start();
      return endpoint;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The real SDK client, with test credentials, pointed at this endpoint. */
  public StsClient client() {
    return StsClient.builder()
        .endpointOverride(uri())
        .region(Region.US_EAST_1)
        .httpClient(UrlConnectionHttpClient.create())
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create("AKIDPUDDLETEST", "puddle-test-secret")))
        .build();
  }

  /** Every {@code AssumeRole} served so far, in order. */
  public List<AssumeRole> calls() {
    return List.copyOf(calls);
  }

  /** Refuses to let anyone assume {@code roleArn}, with STS's {@code AccessDenied}. */
  public void refuse(String roleArn) {
    refusedRoles.add(roleArn);
  }

  /** Makes credentials expire {@code lifetime} after they are issued, whatever was asked. */
  public void issueFor(Duration lifetime) {
    this.lifetime = lifetime;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!exchange.getRequestMethod().equals("POST")
          || exchange.getRequestHeaders().getFirst("Authorization") == null) {
        error(exchange, 403, "MissingAuthenticationToken", "Request is missing a signature");
        return;
      }
      Map<String, String> form =
          form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      if (!"AssumeRole".equals(form.get("Action")) || !"2011-06-15".equals(form.get("Version"))) {
        error(exchange, 400, "InvalidAction", "Could not find operation " + form.get("Action"));
        return;
      }
      String role = form.get("RoleArn");
      String sessionName = form.getOrDefault("RoleSessionName", "");
      String policy = form.get("Policy");
      int duration = Integer.parseInt(form.getOrDefault("DurationSeconds", "3600"));
      if (!SESSION_NAME.matcher(sessionName).matches()) {
        error(exchange, 400, "ValidationError", "Invalid RoleSessionName: " + sessionName);
        return;
      }
      if (duration < 900 || duration > 43_200) {
        error(exchange, 400, "ValidationError", "Invalid DurationSeconds: " + duration);
        return;
      }
      if (policy != null && policy.length() > 2048) {
        error(exchange, 400, "PackedPolicyTooLarge", "Session policy too large");
        return;
      }
      if (role == null || refusedRoles.contains(role)) {
        error(
            exchange,
            403,
            "AccessDenied",
            "User: arn:aws:sts::123456789012:assumed-role/puddle-read/fn is not authorized to"
                + " perform: sts:AssumeRole on resource: "
                + role);
        return;
      }
      calls.add(new AssumeRole(role, sessionName, policy, duration));
      int n = calls.size();
      Instant expiration =
          clock.instant().plus(lifetime != null ? lifetime : Duration.ofSeconds(duration));
      String xml =
          "<AssumeRoleResponse xmlns=\""
              + NAMESPACE
              + "\"><AssumeRoleResult><Credentials>"
              + "<AccessKeyId>ASIAPUDDLETEST"
              + n
              + "</AccessKeyId><SecretAccessKey>secret-"
              + n
              + "</SecretAccessKey><SessionToken>token-"
              + n
              + "</SessionToken><Expiration>"
              + DateTimeFormatter.ISO_INSTANT.format(expiration)
              + "</Expiration></Credentials><AssumedRoleUser><AssumedRoleId>AROAPUDDLETEST:"
              + sessionName
              + "</AssumedRoleId><Arn>"
              + role.replace(":iam::", ":sts::").replace(":role/", ":assumed-role/")
              + "/"
              + sessionName
              + "</Arn></AssumedRoleUser><PackedPolicySize>10</PackedPolicySize>"
              + "</AssumeRoleResult><ResponseMetadata><RequestId>"
              + UUID.randomUUID()
              + "</RequestId></ResponseMetadata></AssumeRoleResponse>";
      respond(exchange, 200, xml);
    }
  }

  private static void error(HttpExchange exchange, int status, String code, String message)
      throws IOException {
    respond(
        exchange,
        status,
        "<ErrorResponse xmlns=\""
            + NAMESPACE
            + "\"><Error><Type>Sender</Type><Code>"
            + code
            + "</Code><Message>"
            + message
            + "</Message></Error><RequestId>"
            + UUID.randomUUID()
            + "</RequestId></ErrorResponse>");
  }

  private static void respond(HttpExchange exchange, int status, String xml) throws IOException {
    byte[] body = xml.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/xml");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private static Map<String, String> form(String body) {
    Map<String, String> values = new HashMap<>();
    for (String pair : body.split("&")) {
      int equals = pair.indexOf('=');
      if (equals > 0) {
        values.put(
            URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
      }
    }
    return values;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
