package dev.puddle.bench.measure;

import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

/**
 * One metric measured on both sides over several rounds, summed up as the ratio Puddle/reference of
 * each round: its median and its spread (lowest to highest).
 *
 * @param name what was measured
 * @param unit the unit of the absolute values, which are reported for scale only
 * @param puddle Puddle's value in each round
 * @param reference the reference server's value in each round
 * @param verdict the goal this metric has, and whether the run met it
 */
public record Comparison(
    String name,
    String unit,
    List<Double> puddle,
    List<Double> reference,
    Optional<Verdict> verdict) {

  /** A goal and whether it was met. */
  public record Verdict(String goal, boolean met) {}

  public static <T> Comparison of(
      String name, String unit, List<Interleaved.Round<T>> rounds, ToDoubleFunction<T> metric) {
    return new Comparison(
        name,
        unit,
        rounds.stream().map(r -> metric.applyAsDouble(r.puddle())).toList(),
        rounds.stream().map(r -> metric.applyAsDouble(r.reference())).toList(),
        Optional.empty());
  }

  /** This comparison judged against a goal. */
  public Comparison withGoal(String goal, Predicate<Comparison> met) {
    return new Comparison(
        name, unit, puddle, reference, Optional.of(new Verdict(goal, met.test(this))));
  }

  /** Puddle/reference, round by round. */
  public List<Double> ratios() {
    return IntStream.range(0, puddle.size())
        .mapToObj(i -> puddle.get(i) / reference.get(i))
        .toList();
  }

  public double medianRatio() {
    return Stats.median(ratios());
  }

  public double minRatio() {
    return Collections.min(ratios());
  }

  public double maxRatio() {
    return Collections.max(ratios());
  }

  public double medianPuddle() {
    return Stats.median(puddle);
  }

  public double medianReference() {
    return Stats.median(reference);
  }
}
