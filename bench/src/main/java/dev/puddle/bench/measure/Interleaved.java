package dev.puddle.bench.measure;

import dev.puddle.bench.Side;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs a trial on both sides in alternation, A B A B…, one warm-up round first. Each round's two
 * results are taken moments apart, so whatever else loads this machine weighs on both about
 * equally, and their ratio is what is worth reporting; a round's absolute values are noise.
 */
public final class Interleaved {
  private Interleaved() {}

  /** One round: both sides' results. */
  public record Round<T>(T puddle, T reference) {}

  /** The measured rounds (the warm-up round is dropped). */
  public static <T> List<Round<T>> run(
      String what,
      int rounds,
      Side puddle,
      Side reference,
      Trial<T> trial,
      Consumer<String> progress)
      throws Exception {
    List<Round<T>> measured = new ArrayList<>();
    for (int round = 0; round <= rounds; round++) {
      T a = trial.run(puddle, round);
      T b = trial.run(reference, round);
      String label = round == 0 ? "warm-up" : "round " + round + "/" + rounds;
      progress.accept(what + ", " + label + ": " + puddle + " " + a + " | " + reference + " " + b);
      if (round > 0) {
        measured.add(new Round<>(a, b));
      }
    }
    return measured;
  }
}
