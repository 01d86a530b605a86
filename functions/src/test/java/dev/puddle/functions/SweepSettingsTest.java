package dev.puddle.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.purge.JobKind;
import dev.puddle.core.purge.PurgeSweep;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The sweep's windows from the {@code PUDDLE_*_SWEEP_*} variables: scan plans have their own stale
 * window, and a window that does not parse stops the function at init, naming its variable.
 */
class SweepSettingsTest {

  @Test
  void unsetPlansGoStaleAfterEightMinutesAndPurgesAfterAnHour() {
    PurgeSweep.Settings settings = PurgeEnvironment.sweepSettings(Map.of());

    assertThat(settings.grace()).isEqualTo(Duration.ofMinutes(5));
    assertThat(settings.stale(JobKind.PLAN)).isEqualTo(Duration.ofMinutes(8));
    assertThat(settings.stale(JobKind.PURGE)).isEqualTo(Duration.ofMinutes(60));
    assertThat(settings.stale(JobKind.MAINTENANCE)).isEqualTo(Duration.ofMinutes(60));
  }

  @Test
  void eachKindTakesItsOwnVariable() {
    PurgeSweep.Settings settings =
        PurgeEnvironment.sweepSettings(
            Map.of(
                "PUDDLE_PLANNING_SWEEP_STALE_MINUTES", " 7 ",
                "PUDDLE_PURGE_SWEEP_STALE_MINUTES", "185"));

    assertThat(settings.stale(JobKind.PLAN)).isEqualTo(Duration.ofMinutes(7));
    assertThat(settings.stale(JobKind.PURGE)).isEqualTo(Duration.ofMinutes(185));
    assertThat(settings.stale(JobKind.MAINTENANCE)).isEqualTo(Duration.ofMinutes(185));
  }

  @Test
  void aWindowThatIsNotANumberStopsTheFunctionAtInit() {
    assertThatThrownBy(
            () ->
                PurgeEnvironment.sweepSettings(Map.of("PUDDLE_PLANNING_SWEEP_STALE_MINUTES", "8m")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("PUDDLE_PLANNING_SWEEP_STALE_MINUTES")
        .hasMessageContaining("8m");
  }

  @Test
  void aWindowOfNoTimeStopsTheFunctionAtInit() {
    assertThatThrownBy(
            () ->
                PurgeEnvironment.sweepSettings(Map.of("PUDDLE_PLANNING_SWEEP_STALE_MINUTES", "0")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            "PUDDLE_PLANNING_SWEEP_STALE_MINUTES must be at least 1 (minutes): 0");
  }
}
