package dev.puddle.core.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.api.Deadline;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A transaction's nudge leaves ahead of its COMMIT, delayed so the relay cannot receive it before
 * the events are visible; a COMMIT that returned too late for that delay to cover it gets a second
 * nudge, at once.
 */
class RelayNudgesTest {
  private final List<Duration> nudges = new CopyOnWriteArrayList<>();
  private final AtomicLong now = new AtomicLong();

  private RelayNudges nudges() {
    return new RelayNudges(nudges::add, Deadline.none(), now::get);
  }

  @Test
  void aCommitSoonAfterItsEventsIsCoveredByTheNudgeSentAheadOfIt() {
    RelayNudges request = nudges();
    request.recorded();
    now.addAndGet(RelayNudges.AHEAD_MARGIN.toNanos() - 1);
    request.committed();
    request.await();

    assertThat(nudges).containsExactly(RelayNudges.AHEAD_DELAY);
  }

  @Test
  void aSlowCommitIsNudgedAgainOnceItReturned() {
    RelayNudges request = nudges();
    request.recorded();
    now.addAndGet(RelayNudges.AHEAD_MARGIN.toNanos());
    request.committed();
    request.await();

    assertThat(nudges).containsExactly(RelayNudges.AHEAD_DELAY, Duration.ZERO);
  }

  @Test
  void eachTransactionOfARequestIsNudgedForItself() {
    RelayNudges request = nudges();
    request.recorded();
    request.committed();
    // a second transaction, long after the first one's nudge
    now.addAndGet(RelayNudges.AHEAD_MARGIN.toNanos());
    request.recorded();
    request.committed();
    request.await();

    assertThat(nudges).containsExactly(RelayNudges.AHEAD_DELAY, RelayNudges.AHEAD_DELAY);
  }

  @Test
  void theAheadDelayLeavesTheMarginForTheCommitsAnswerToArrive() {
    assertThat(RelayNudges.AHEAD_MARGIN).isLessThan(RelayNudges.AHEAD_DELAY);
  }
}
