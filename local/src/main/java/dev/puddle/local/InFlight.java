package dev.puddle.local;

import java.time.Duration;

/**
 * Counts requests in flight so that shutdown can let them finish: once draining starts, new
 * requests are turned away and {@link #drain} waits for the running ones.
 */
final class InFlight {
  private int running;
  private boolean draining;

  /** Admits a request; false once draining has started. */
  synchronized boolean enter() {
    if (draining) {
      return false;
    }
    running++;
    return true;
  }

  synchronized void exit() {
    running--;
    if (running == 0) {
      notifyAll();
    }
  }

  /** Turns new requests away and waits until none runs, or the timeout; true if all finished. */
  synchronized boolean drain(Duration timeout) throws InterruptedException {
    draining = true;
    long deadline = System.nanoTime() + timeout.toNanos();
    while (running > 0) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }
}
