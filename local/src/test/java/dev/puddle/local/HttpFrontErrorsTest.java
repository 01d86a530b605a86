package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * Bad requests over real HTTP to the twin, where its front matters: every error the front raises
 * itself (a URI that does not decode, NUL, a request line or headers over API Gateway's limit, a
 * body over its limit) and every one the catch-all answers (an unknown path, a method a path does
 * not have) is an Iceberg {@code ErrorResponse} in JSON, as the function gives them, never an HTML
 * page, and changes nothing in the metastore. Requests are written byte for byte on a socket, so
 * that nothing a client library would refuse to send is left out.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpFrontErrorsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private String warehouse;
  private String token;
  private MetastoreDump dump;
  private URI front;

  /** The twin the suite runs against; a subclass runs it in the other metastore access mode. */
  protected TestTwin twin() {
    return TestTwin.of(TestTwin.Mode.JDBC);
  }

  @BeforeAll
  void setUp() throws IOException {
    warehouse = twin().warehouse("front-errors", Map.of());
    token = twin().token(TestTwin.ROOT);
    front = URI.create(twin().local().uri());
    dump = MetastoreDump.of(twin().local().database());
    Answer namespace = send("POST /v1/" + warehouse + "/namespaces", "{\"namespace\":[\"ns\"]}");
    assertThat(namespace.status()).as(namespace.body()).isEqualTo(200);
    Answer table =
        send(
            "POST /v1/" + warehouse + "/namespaces/ns/tables",
            "{\"name\":\"t\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,\"fields\":"
                + "[{\"id\":1,\"name\":\"id\",\"required\":true,\"type\":\"long\"}]}}");
    assertThat(table.status()).as(table.body()).isEqualTo(200);
  }

  /** A request and the statuses it may get; for a 405, the {@code Allow} it must carry. */
  private record Case(String name, byte[] request, Set<Integer> statuses, String allow) {}

  @TestFactory
  Stream<DynamicTest> theFrontAnswersEveryBadRequestWithAnIcebergError() {
    String tables = "/v1/" + warehouse + "/namespaces/ns/tables";
    List<Case> cases =
        List.of(
            get("%00 in a path", "/v1/" + warehouse + "/namespaces/a%00b", 400),
            get("%00 alone", "/v1/" + warehouse + "/namespaces/%00", 400),
            get("an invalid percent-encoding", "/v1/" + warehouse + "/namespaces/a%zzb", 400, 404),
            get("a path that is not UTF-8", "/v1/" + warehouse + "/namespaces/%C3%28", 400),
            get("a query that is not UTF-8", "/v1/" + warehouse + "/namespaces?pageToken=%FF", 400),
            get(
                "a path of 11,000 bytes",
                "/v1/" + warehouse + "/namespaces/" + "n".repeat(11_000),
                414,
                431),
            new Case(
                "a raw NUL in the request line",
                bytes("GET /v1/" + warehouse + "/namespaces/a\u0000b HTTP/1.1\r\n" + headers(0)),
                Set.of(400),
                null),
            new Case(
                "headers of 11,000 bytes",
                bytes(
                    "GET /v1/config HTTP/1.1\r\nX-Big: "
                        + "h".repeat(11_000)
                        + "\r\n"
                        + headers(0)),
                Set.of(431),
                null),
            new Case(
                "a body of 20 MB",
                bytes(
                    "POST /v1/"
                        + warehouse
                        + "/namespaces HTTP/1.1\r\nExpect: 100-continue\r\n"
                        + "Content-Type: application/json\r\n"
                        + headers(20 * 1024 * 1024)),
                Set.of(413),
                null),
            post(
                "a namespace name of 10,000 characters",
                "/v1/" + warehouse + "/namespaces",
                "{\"namespace\":[\"" + "n".repeat(10_000) + "\"]}",
                400),
            post(
                "a table location with ..",
                tables,
                "{\"name\":\"escape\",\"location\":\"s3://"
                    + LocalTwin.BUCKET
                    + "/"
                    + warehouse
                    + "/ns/../../x\",\"schema\":{\"type\":\"struct\",\"schema-id\":0,"
                    + "\"fields\":[]}}",
                400),
            post(
                "a manifest list in another bucket",
                tables + "/t",
                "{\"requirements\":[],\"updates\":[{\"action\":\"add-snapshot\",\"snapshot\":"
                    + "{\"snapshot-id\":1,\"timestamp-ms\":1,\"sequence-number\":1,\"summary\":"
                    + "{\"operation\":\"append\"},\"manifest-list\":\"s3://another-bucket/m.avro\","
                    + "\"schema-id\":0}}]}",
                400),
            request("an unknown path", "GET", "/v1/nothing/here", 404, null),
            request(
                "PUT on the namespaces",
                "PUT",
                "/v1/" + warehouse + "/namespaces",
                405,
                "GET, POST"),
            request("PATCH on a table", "PATCH", tables + "/t", 405, "DELETE, GET, HEAD, POST"),
            request("DELETE on the config", "DELETE", "/v1/config", 405, "GET"));
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> run(c)));
  }

  private void run(Case c) throws IOException {
    String before = dump.take();
    Answer answer = exchange(c.request());

    assertThat(c.statuses()).as("%s: %s", c.name(), answer.body()).contains(answer.status());
    assertThat(answer.headers().get("content-type")).startsWith("application/json");
    JsonNode error = JSON.readTree(answer.body()).get("error");
    assertThat(error).as(answer.body()).isNotNull();
    assertThat(error.get("code").asInt()).isEqualTo(answer.status());
    assertThat(error.get("type").asText()).isNotBlank();
    assertThat(error.get("message").asText()).isNotBlank().doesNotContain("<html", "\tat ");
    if (c.allow() != null) {
      assertThat(answer.headers()).containsEntry("allow", c.allow());
    }
    assertThat(dump.take()).as("the metastore after %s", c.name()).isEqualTo(before);
  }

  private Case get(String name, String target, Integer... statuses) {
    return new Case(
        name, bytes("GET " + target + " HTTP/1.1\r\n" + headers(0)), Set.of(statuses), null);
  }

  private Case request(String name, String method, String target, int status, String allow) {
    return new Case(
        name, bytes(method + " " + target + " HTTP/1.1\r\n" + headers(0)), Set.of(status), allow);
  }

  private Case post(String name, String target, String body, int status) {
    byte[] content = bytes(body);
    return new Case(
        name,
        concat(
            bytes(
                "POST "
                    + target
                    + " HTTP/1.1\r\nContent-Type: application/json\r\n"
                    + headers(content.length)),
            content),
        Set.of(status),
        null);
  }

  private Answer send(String requestLine, String body) throws IOException {
    String[] parts = requestLine.split(" ", 2);
    return exchange(post(requestLine, parts[1], body, 200).request());
  }

  /** The headers every request ends with, and the blank line. */
  private String headers(long contentLength) {
    return "Host: "
        + front.getHost()
        + ":"
        + front.getPort()
        + "\r\n"
        + "Authorization: Bearer "
        + token
        + "\r\n"
        + (contentLength > 0 ? "Content-Length: " + contentLength + "\r\n" : "")
        + "Connection: close\r\n\r\n";
  }

  /** What the front answered: status, header names in lower case, and the body. */
  private record Answer(int status, Map<String, String> headers, String body) {}

  /**
   * Writes a request and reads the answer until the front closes the connection. A request that
   * announces a body it does not carry expects 100-continue, which a refusal never sends.
   */
  private Answer exchange(byte[] request) throws IOException {
    try (Socket socket = new Socket(front.getHost(), front.getPort())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(request);
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream received = new ByteArrayOutputStream();
      in.transferTo(received);
      return parse(received.toString(StandardCharsets.ISO_8859_1));
    }
  }

  private static Answer parse(String response) {
    int end = response.indexOf("\r\n\r\n");
    assertThat(end).as("a complete response head: %s", response).isPositive();
    String[] lines = response.substring(0, end).split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      headers.put(
          lines[i].substring(0, colon).toLowerCase(Locale.ROOT),
          lines[i].substring(colon + 1).strip());
    }
    String body = response.substring(end + 4);
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      StringBuilder content = new StringBuilder();
      int at = 0;
      while (true) {
        int lineEnd = body.indexOf("\r\n", at);
        int size = Integer.parseInt(body.substring(at, lineEnd).strip(), 16);
        if (size == 0) {
          break;
        }
        content.append(body, lineEnd + 2, lineEnd + 2 + size);
        at = lineEnd + 2 + size + 2;
      }
      body = content.toString();
    }
    return new Answer(
        status,
        headers,
        new String(body.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] result = new byte[a.length + b.length];
    System.arraycopy(a, 0, result, 0, a.length);
    System.arraycopy(b, 0, result, a.length, b.length);
    return result;
  }
}
