package dev.puddle.core.metastore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;

/**
 * The job rows of submitted scan plans (migration V12), claimed by the planning function, re-sent
 * by the sweep. A row belongs to its {@code scan_plan} row and goes with it when the plan is
 * cancelled or expires. Claims fence every update ({@link BackgroundJobs}).
 */
public final class ScanPlanJobs extends JobTable<ScanPlanJob> {
  private static final String COLUMNS =
      "plan_id, (SELECT request FROM scan_plan p WHERE p.id = scan_plan_job.plan_id),"
          + " metadata_location, tasks_per_page, phase";

  public ScanPlanJobs(Database database) {
    super(
        database,
        "scan_plan_job",
        "plan_id",
        COLUMNS,
        rs ->
            new ScanPlanJob(
                rs.getObject(1, java.util.UUID.class),
                rs.getString(2),
                rs.getString(3),
                rs.getInt(4),
                "done".equals(rs.getString(5))));
  }

  /**
   * Stores the plan's pages, numbered from 0, and marks it planned, in one transaction, while the
   * claim holds and the plan is neither cancelled nor expired. False, and nothing stored,
   * otherwise.
   */
  public boolean store(BackgroundJobs.Claim<ScanPlanJob> claim, List<String> pages) {
    return database.transaction(
        connection -> {
          // the plan's row first, as a cancel takes it (its DELETE, then the job row's by
          // cascade): taken after the job row, a cancel in between deadlocked with this
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT 1 FROM scan_plan WHERE id = ? AND expires_at > now() FOR KEY SHARE")) {
            statement.setObject(1, claim.jobId());
            try (ResultSet rs = statement.executeQuery()) {
              if (!rs.next()) {
                return false;
              }
            }
          }
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "UPDATE scan_plan_job SET phase = 'done', updated_at = now()"
                      + " WHERE plan_id = ? AND claim_id = ?")) {
            statement.setObject(1, claim.jobId());
            statement.setObject(2, claim.claimId());
            if (statement.executeUpdate() != 1) {
              return false;
            }
          }
          // a redelivered job whose first attempt stored its pages but could not finish
          try (PreparedStatement statement =
              connection.prepareStatement("DELETE FROM scan_plan_page WHERE plan_id = ?")) {
            statement.setObject(1, claim.jobId());
            statement.executeUpdate();
          }
          ScanPlans.insertPages(connection, claim.jobId(), pages, 0);
          return true;
        });
  }
}
