package dev.puddle.bench.measure;

import java.util.Arrays;
import java.util.Collection;

/** Medians, and percentiles by nearest rank. */
public final class Stats {
  private Stats() {}

  /** The middle value, or the mean of the two middle values of an even count. */
  public static double median(Collection<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    if (sorted.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  /** The nearest-rank percentile {@code p} (0 to 100) of {@code values}, which it sorts. */
  public static double percentile(double[] values, double p) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    Arrays.sort(values);
    int rank = (int) Math.ceil(p / 100 * values.length);
    return values[Math.clamp(rank - 1, 0, values.length - 1)];
  }
}
