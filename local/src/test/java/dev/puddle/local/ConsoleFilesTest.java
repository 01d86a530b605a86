package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.puddle.contract.ConsoleSite;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The twin's front serving the console's built files at /ui with its security headers, in front of
 * a function of the test's own that answers every other path.
 */
class ConsoleFilesTest {
  private static final String ANSWER =
      "{\"statusCode\":200,\"headers\":{\"content-type\":\"application/json\"},"
          + "\"body\":\"{\\\"function\\\":true}\",\"isBase64Encoded\":false}";

  private final AtomicInteger invocations = new AtomicInteger();
  private HttpFront front;

  @BeforeEach
  void start() {
    RequestStreamHandler function =
        (input, output, context) -> {
          invocations.incrementAndGet();
          output.write(ANSWER.getBytes(StandardCharsets.UTF_8));
        };
    front = HttpFront.start("127.0.0.1", 0, 2, new ApiGatewayBridge(function, new InFlight()));
  }

  @AfterEach
  void stop() {
    front.close();
  }

  @Test
  void servesThePageAndItsFilesWithAStrictPolicy() throws Exception {
    for (String path : List.of("/ui", "/ui/", "/ui/index.html")) {
      HttpResponse<String> page = get(path);
      assertThat(page.statusCode()).as(path).isEqualTo(200);
      assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
      assertThat(page.body()).contains("<script type=\"module\" src=\"/ui/app.js\">");
      assertSecurityHeaders(page);
    }
    HttpResponse<String> script = get("/ui/app.js");
    assertThat(script.statusCode()).isEqualTo(200);
    assertThat(script.headers().firstValue("content-type"))
        .hasValue("text/javascript; charset=utf-8");
    assertSecurityHeaders(script);
    assertThat(get("/ui/app.css").headers().firstValue("content-type"))
        .hasValue("text/css; charset=utf-8");
    assertThat(invocations).hasValue(0);
  }

  @Test
  void policyAllowsNoInlineScriptAndOnlyTheOwnOrigin() {
    assertThat(ConsoleSite.CONTENT_SECURITY_POLICY)
        .contains("default-src 'self'", "connect-src 'self'", "frame-ancestors 'none'")
        .doesNotContain("unsafe-inline", "unsafe-eval", "*");
  }

  @Test
  void anUnknownFileIsNotFoundAndOnlyReadsAreAllowed() throws Exception {
    // dot segments never reach a file: Jetty refuses them before any handler
    assertThat(get("/ui/../../etc/passwd").statusCode()).isEqualTo(400);
    HttpResponse<String> missing = get("/ui/secrets.json");
    assertThat(missing.statusCode()).isEqualTo(404);
    assertSecurityHeaders(missing);
    HttpResponse<String> post = TwinHttp.at(front.uri()).post("/ui", "x");
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("allow")).hasValue("GET, HEAD");
    assertThat(invocations).hasValue(0);
  }

  @Test
  void everyOtherPathGoesToTheFunction() throws Exception {
    assertThat(get("/uix").body()).isEqualTo("{\"function\":true}");
    assertThat(get("/v1/config").body()).isEqualTo("{\"function\":true}");
    assertThat(invocations).hasValue(2);
  }

  private HttpResponse<String> get(String path) {
    return TwinHttp.at(front.uri()).get(path);
  }

  private static void assertSecurityHeaders(HttpResponse<String> response) {
    assertThat(response.headers().firstValue("content-security-policy"))
        .hasValue(ConsoleSite.CONTENT_SECURITY_POLICY);
    assertThat(response.headers().firstValue("x-content-type-options")).hasValue("nosniff");
    assertThat(response.headers().firstValue("x-frame-options")).hasValue("DENY");
  }
}
