package dev.puddle.core.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Work in steps starts a new one only while more than its reserve of the time is left. */
class DeadlineReserveTest {

  @Test
  void noStepStartsInTheReserve() throws InterruptedException {
    long start = System.nanoTime();
    Deadline deadline = Deadline.in(Duration.ofMillis(600)).withReserve(0.5);

    assertThat(deadline.allowsAnotherStep()).isTrue();
    while (deadline.allowsAnotherStep()) {
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
      Thread.sleep(5);
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

    // the window closed with half of the time left, not before and not at the end
    assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofMillis(299));
    assertThat(deadline.remaining()).isLessThanOrEqualTo(Duration.ofMillis(300));
  }

  @Test
  void withoutAReserveStepsStartUntilTheDeadline() {
    assertThat(Deadline.in(Duration.ofHours(1)).allowsAnotherStep()).isTrue();
    assertThat(Deadline.in(Duration.ZERO).allowsAnotherStep()).isFalse();
    assertThat(Deadline.in(Duration.ofSeconds(-1)).withReserve(0.2).allowsAnotherStep()).isFalse();
    assertThat(Deadline.in(Duration.ofSeconds(-1)).remaining()).isEqualTo(Duration.ZERO);
  }

  @Test
  void noDeadlineAlwaysAllowsAnotherStep() {
    Deadline none = Deadline.none().withReserve(0.2);

    assertThat(none.isNone()).isTrue();
    assertThat(none.allowsAnotherStep()).isTrue();
    assertThat(none.passed()).isFalse();
    assertThat(none.remainingMillis()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aReserveIsAFractionOfTheTimeLeft() {
    Deadline deadline = Deadline.in(Duration.ofSeconds(1));

    assertThatThrownBy(() -> deadline.withReserve(1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> deadline.withReserve(-0.1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> deadline.withReserve(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
