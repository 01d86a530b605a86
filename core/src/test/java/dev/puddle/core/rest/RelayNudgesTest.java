package dev.puddle.core.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.api.Deadline;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A transaction's nudge leaves ahead of its COMMIT, delayed so the relay cannot receive it before
 * the events are visible; a COMMIT that returned too late for that delay to cover it gets a second
 * nudge, at once. The transactions of an environment rely on its last nudge ahead while it is
 * recent, instead of each sending one.
 */
class RelayNudgesTest {
  private final List<Duration> nudges = new CopyOnWriteArrayList<>();
  private final AtomicLong now = new AtomicLong();
  private final AtomicBoolean queueFails = new AtomicBoolean();

  private final RelayNudges.Environment environment =
      new RelayNudges.Environment(
          delay -> {
            nudges.add(delay);
            if (queueFails.get()) {
              throw new IllegalStateException("the queue refused the send");
            }
          },
          now::get);

  private RelayNudges request() {
    return environment.forRequest(Deadline.none());
  }

  /** One request with one transaction that commits {@code commitNanos} after its first event. */
  private void write(long commitNanos) {
    RelayNudges request = request();
    request.recorded();
    now.addAndGet(commitNanos);
    request.committed();
    request.await();
  }

  @Test
  void aCommitSoonAfterItsEventsIsCoveredByTheNudgeSentAheadOfIt() {
    write(RelayNudges.AHEAD_MARGIN.toNanos() - 1);

    assertThat(nudges).containsExactly(RelayNudges.AHEAD_DELAY);
  }

  @Test
  void aSlowCommitIsNudgedAgainOnceItReturned() {
    write(RelayNudges.AHEAD_MARGIN.toNanos());

    // both sends run in background, so either may reach the queue first
    assertThat(nudges).containsExactlyInAnyOrder(RelayNudges.AHEAD_DELAY, Duration.ZERO);
  }

  @Test
  void eachTransactionOfARequestIsNudgedForItself() {
    RelayNudges request = request();
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
  void writesSoonAfterAnotherRelyOnItsNudgeAndSendNone() {
    write(1_000_000);
    for (int i = 0; i < 10; i++) {
      now.addAndGet(RelayNudges.REUSE_WINDOW.toNanos() / 20);
      write(1_000_000);
    }

    assertThat(nudges).containsExactly(RelayNudges.AHEAD_DELAY);
  }

  @Test
  void aWriteOnceTheLastNudgeIsNoLongerRecentSendsItsOwn() {
    write(1_000_000);
    now.addAndGet(RelayNudges.REUSE_WINDOW.toNanos());
    write(1_000_000);

    assertThat(nudges).containsExactly(RelayNudges.AHEAD_DELAY, RelayNudges.AHEAD_DELAY);
  }

  @Test
  void aWriteRelyingOnAnEarlierNudgeIsNudgedAgainIfItsCommitReturnsPastThatNudgesMargin() {
    write(0);
    long sinceFirst = RelayNudges.REUSE_WINDOW.toNanos() - 1;
    now.addAndGet(sinceFirst);
    // recent enough to rely on, but the COMMIT returns past the first nudge's margin
    write(RelayNudges.AHEAD_MARGIN.toNanos() - sinceFirst);

    assertThat(nudges).containsExactly(RelayNudges.AHEAD_DELAY, Duration.ZERO);
  }

  @Test
  void aWriteWhoseNudgeAheadFailedIsNudgedAtOnceAndTheNextSendsANewOne() {
    queueFails.set(true);
    write(1_000_000);
    queueFails.set(false);
    write(1_000_000);

    // the failed nudge ahead, the one sent at once for its write, and the next write's own
    assertThat(nudges)
        .containsExactly(RelayNudges.AHEAD_DELAY, Duration.ZERO, RelayNudges.AHEAD_DELAY);
  }

  @Test
  void aNudgeThatSeemsToHaveStartedLaterThanNowIsNotReliedOn() {
    now.set(RelayNudges.AHEAD_MARGIN.toNanos());
    write(0);
    // the clock moved back, as it may across a SnapStart restore
    now.set(0);
    write(0);

    assertThat(nudges).containsExactly(RelayNudges.AHEAD_DELAY, RelayNudges.AHEAD_DELAY);
  }

  @Test
  void theAheadDelayLeavesTheMarginForTheCommitsAnswerToArrive() {
    assertThat(RelayNudges.AHEAD_MARGIN).isLessThan(RelayNudges.AHEAD_DELAY);
    assertThat(RelayNudges.REUSE_WINDOW).isLessThan(RelayNudges.AHEAD_MARGIN);
  }
}
