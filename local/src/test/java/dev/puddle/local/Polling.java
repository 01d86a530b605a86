package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/** Waiting for what the twin does asynchronously: a probe polled until it answers, or a failure. */
final class Polling {
  private Polling() {}

  /**
   * Polls {@code probe} every {@code interval} until it returns a value, and returns that; fails
   * the test, naming {@code what}, if none comes {@code within}.
   */
  static <T> T waitFor(Duration within, Duration interval, Supplier<T> probe, String what) {
    long deadline = System.nanoTime() + within.toNanos();
    while (true) {
      T value = probe.get();
      if (value != null) {
        return value;
      }
      assertThat(System.nanoTime()).as("%s within %s", what, within).isLessThan(deadline);
      LockSupport.parkNanos(interval.toNanos());
    }
  }
}
