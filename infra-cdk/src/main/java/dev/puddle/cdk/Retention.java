package dev.puddle.cdk;

import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.services.logs.RetentionDays;

/** CloudWatch Logs retention from a number of days: the shortest allowed period that keeps them. */
final class Retention {
  private static final TreeMap<Integer, RetentionDays> PERIODS =
      new TreeMap<>(
          Map.ofEntries(
              Map.entry(1, RetentionDays.ONE_DAY),
              Map.entry(3, RetentionDays.THREE_DAYS),
              Map.entry(5, RetentionDays.FIVE_DAYS),
              Map.entry(7, RetentionDays.ONE_WEEK),
              Map.entry(14, RetentionDays.TWO_WEEKS),
              Map.entry(30, RetentionDays.ONE_MONTH),
              Map.entry(60, RetentionDays.TWO_MONTHS),
              Map.entry(90, RetentionDays.THREE_MONTHS),
              Map.entry(180, RetentionDays.SIX_MONTHS),
              Map.entry(365, RetentionDays.ONE_YEAR),
              Map.entry(731, RetentionDays.TWO_YEARS),
              Map.entry(3653, RetentionDays.TEN_YEARS)));

  private Retention() {}

  static RetentionDays days(int days) {
    Map.Entry<Integer, RetentionDays> period = PERIODS.ceilingEntry(days);
    return period == null ? RetentionDays.INFINITE : period.getValue();
  }
}
