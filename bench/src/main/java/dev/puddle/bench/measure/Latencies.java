package dev.puddle.bench.measure;

import java.util.List;
import java.util.Locale;

/** Latencies of one side in one round, in milliseconds. */
public record Latencies(int count, double p50, double p99) {
  public static Latencies of(List<Long> nanos) {
    double[] millis = nanos.stream().mapToDouble(n -> n / 1e6).toArray();
    return new Latencies(millis.length, Stats.percentile(millis, 50), Stats.percentile(millis, 99));
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "p50 %.2f ms, p99 %.2f ms (%d ops)", p50, p99, count);
  }
}
