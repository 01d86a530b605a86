package dev.puddle.bench;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Progress lines on stderr, so that stdout carries the report alone. */
public final class Progress {
  private Progress() {}

  public static void report(String message) {
    System.err.println("[bench " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "] " + message);
  }
}
