package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The twin's HTTP front stopping, with a function of the test's own in place of the catalog's: a
 * request in flight when the drain starts is answered in full, and requests arriving meanwhile are
 * turned away with API Gateway's 503.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpFrontTest {
  private static final String ANSWER =
      "{\"statusCode\":200,\"headers\":{\"content-type\":\"application/json\"},"
          + "\"body\":\"{\\\"answered\\\":true}\",\"isBase64Encoded\":false}";

  @Test
  void aDrainLetsTheRequestInFlightFinishAndTurnsNewOnesAway() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch released = new CountDownLatch(1);
    AtomicInteger invocations = new AtomicInteger();
    RequestStreamHandler function =
        (input, output, context) -> {
          if (invocations.incrementAndGet() == 1) {
            entered.countDown();
            try {
              released.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          output.write(ANSWER.getBytes(StandardCharsets.UTF_8));
        };
    InFlight inFlight = new InFlight();
    try (HttpFront front =
            HttpFront.start("127.0.0.1", 0, 4, new ApiGatewayBridge(function, inFlight));
        HttpClient http = HttpClient.newHttpClient()) {
      HttpRequest request = HttpRequest.newBuilder(URI.create(front.uri() + "/v1/config")).build();
      CompletableFuture<HttpResponse<String>> inFlightRequest =
          http.sendAsync(request, BodyHandlers.ofString());
      assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();

      CompletableFuture<Boolean> drained =
          CompletableFuture.supplyAsync(() -> drain(inFlight, Duration.ofSeconds(30)));
      HttpResponse<String> late;
      do {
        // admitted (and answered at once) until the drain has begun
        late = http.send(request, BodyHandlers.ofString());
      } while (late.statusCode() == 200);
      assertThat(late.statusCode()).isEqualTo(503);
      assertThat(late.body()).isEqualTo("{\"message\":\"Service Unavailable\"}");
      assertThat(drained).isNotDone();
      assertThat(inFlightRequest).isNotDone();

      released.countDown();
      HttpResponse<String> answered = inFlightRequest.get(30, TimeUnit.SECONDS);
      assertThat(answered.statusCode()).isEqualTo(200);
      assertThat(answered.body()).isEqualTo("{\"answered\":true}");
      assertThat(drained.get(30, TimeUnit.SECONDS)).isTrue();
    }
  }

  private static boolean drain(InFlight inFlight, Duration timeout) {
    try {
      return inFlight.drain(timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
