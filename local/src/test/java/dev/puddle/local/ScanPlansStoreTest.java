package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.ScanPlans;
import dev.puddle.core.metastore.Warehouses;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The scan plan store in both metastore modes, over JDBC and through the RDS Data API: a plan's
 * pages come back whole however large (a page may hold up to two million characters, far past the
 * Data API's 64 KB row), for its owner only, until it is deleted or expires.
 */
class ScanPlansStoreTest {
  private static final Duration HOUR = Duration.ofHours(1);

  @ParameterizedTest
  @EnumSource(TestTwin.Mode.class)
  void pagesAreTheOwnersAloneUntilDeletedOrExpired(TestTwin.Mode mode) {
    TestTwin twin = TestTwin.of(mode);
    Database database = twin.local().database();
    long warehouseId =
        new Warehouses(database).get(LocalTwin.REALM, twin.warehouse("plans", Map.of())).id();
    ScanPlans plans = new ScanPlans(database);
    ScanPlans.Owner owner = new ScanPlans.Owner(LocalTwin.REALM, "alice", warehouseId, "ns.t");
    String large = "{\"file-scan-tasks\":[\"" + "x".repeat(1_500_000) + "\"]}";

    UUID id = plans.insert(owner, "{}", List.of("{\"page\":1}", large), 1, HOUR, 10);

    assertThat(plans.find(owner, id).orElseThrow().pages()).containsExactly(1, 2);
    assertThat(plans.page(owner, id, 1)).contains("{\"page\":1}");
    assertThat(plans.page(owner, id, 2)).contains(large);
    assertThat(plans.page(owner, id, 3)).isEmpty();
    for (ScanPlans.Owner other :
        List.of(
            new ScanPlans.Owner(LocalTwin.REALM, "bob", warehouseId, "ns.t"),
            new ScanPlans.Owner("other-realm", "alice", warehouseId, "ns.t"),
            new ScanPlans.Owner(LocalTwin.REALM, "alice", warehouseId + 1, "ns.t"),
            new ScanPlans.Owner(LocalTwin.REALM, "alice", warehouseId, "ns.u"))) {
      assertThat(plans.find(other, id)).as("%s", other).isEmpty();
      assertThat(plans.page(other, id, 1)).as("%s", other).isEmpty();
      assertThat(plans.delete(other, id)).as("%s", other).isFalse();
    }

    assertThat(plans.delete(owner, id)).isTrue();
    assertThat(plans.find(owner, id)).isEmpty();
    assertThat(plans.page(owner, id, 1)).isEmpty();
    assertThat(plans.delete(owner, id)).isFalse();

    UUID expired = plans.insert(owner, "{}", List.of("{}"), 1, Duration.ofMillis(-1), 0);
    assertThat(plans.find(owner, expired)).isEmpty();
    assertThat(plans.page(owner, expired, 1)).isEmpty();
    assertThat(plans.removeExpired(10_000)).isPositive();
    assertThat(rows(database, expired)).isZero();
  }

  private static long rows(Database database, UUID plan) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT (SELECT count(*) FROM scan_plan WHERE id = ?)"
                      + " + (SELECT count(*) FROM scan_plan_page WHERE plan_id = ?)")) {
            statement.setObject(1, plan);
            statement.setObject(2, plan);
            try (ResultSet rs = statement.executeQuery()) {
              rs.next();
              return rs.getLong(1);
            }
          }
        });
  }
}
