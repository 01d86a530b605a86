package dev.puddle.core.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A request's memo: computed once within the request, never shared with another or outside one. */
class RequestScopeTest {
  private final AtomicInteger reads = new AtomicInteger();

  @Test
  void aValueIsComputedOncePerRequestAndNeverSharedBetweenRequests() {
    int first =
        new RequestScope(Deadline.none())
            .run(
                () -> {
                  RequestScope.current().memo("grants", reads::incrementAndGet);
                  return RequestScope.current().memo("grants", reads::incrementAndGet);
                });
    assertThat(first).isEqualTo(1);
    assertThat(reads).hasValue(1);

    int second =
        new RequestScope(Deadline.none())
            .run(() -> RequestScope.current().memo("grants", reads::incrementAndGet));
    assertThat(second).as("another request reads afresh").isEqualTo(2);
  }

  @Test
  void outsideARequestNothingIsKept() {
    RequestScope.current().memo("grants", reads::incrementAndGet);
    RequestScope.current().memo("grants", reads::incrementAndGet);

    assertThat(reads).hasValue(2);
  }
}
