package dev.puddle.core.metastore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Scan plans and their pages of file scan tasks, kept so that any instance answers for them until
 * they expire. Every read and delete names the plan's owner, the principal of the realm that asked
 * for it and the table of the warehouse it scans: a plan is found for its owner only, and an
 * expired one for nobody, whether or not the sweep has removed it yet.
 */
public final class ScanPlans {
  /** Who a plan belongs to: a principal of a realm, scanning a table of a warehouse. */
  public record Owner(String realm, String principal, long warehouseId, String table) {}

  /** Where a plan stands: planned, waiting for the planning worker, or failed there. */
  public enum Status {
    COMPLETED,
    SUBMITTED,
    FAILED
  }

  /**
   * A plan as its owner sees it: where it stands, the numbers of its stored pages in order (none
   * until it is completed), and the worker's last error of a failed plan.
   */
  public record ScanPlan(UUID id, Status status, List<Integer> pages, String error) {}

  private final Database database;

  public ScanPlans(Database database) {
    this.database = database;
  }

  /**
   * Records a completed plan and its pages, numbered from {@code firstPage}, in one transaction,
   * removing up to {@code sweepLimit} expired plans on the way. Returns the plan's id.
   */
  public UUID insert(
      Owner owner,
      String request,
      List<String> pages,
      int firstPage,
      Duration lifetime,
      int sweepLimit) {
    UUID id = UUID.randomUUID();
    database.transaction(
        connection -> {
          insert(connection, id, owner, request, lifetime);
          insertPages(connection, id, pages, firstPage);
          removeExpired(connection, sweepLimit);
          return null;
        });
    return id;
  }

  /**
   * Records a submitted plan, whose job (the outbox row the planning queue's message names) is
   * written in the same transaction: the worker plans {@code request} on the table's {@code
   * metadataLocation} into pages of {@code tasksPerPage} tasks. Returns the plan's id, which is
   * also its job's.
   */
  public UUID submit(
      Owner owner,
      String request,
      String metadataLocation,
      int tasksPerPage,
      Duration lifetime,
      int sweepLimit) {
    UUID id = UUID.randomUUID();
    database.transaction(
        connection -> {
          insert(connection, id, owner, request, lifetime);
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "INSERT INTO scan_plan_job (plan_id, metadata_location, tasks_per_page)"
                      + " VALUES (?, ?, ?)")) {
            statement.setObject(1, id);
            statement.setString(2, metadataLocation);
            statement.setInt(3, tasksPerPage);
            statement.executeUpdate();
          }
          removeExpired(connection, sweepLimit);
          return null;
        });
    return id;
  }

  private static void insert(
      Connection connection, UUID id, Owner owner, String request, Duration lifetime)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "INSERT INTO scan_plan (id, realm_id, principal, warehouse_id, table_name, request,"
                + " expires_at) VALUES (?, ?, ?, ?, ?, ?, now() + ? * interval '1 millisecond')")) {
      statement.setObject(1, id);
      statement.setString(2, owner.realm());
      statement.setString(3, owner.principal());
      statement.setLong(4, owner.warehouseId());
      statement.setString(5, owner.table());
      statement.setString(6, request);
      statement.setLong(7, lifetime.toMillis());
      statement.executeUpdate();
    }
  }

  static void insertPages(Connection connection, UUID id, List<String> pages, int first)
      throws SQLException {
    // one statement per page: a page can be a megabyte or two, and the Data API stages large
    // parameters one statement at a time
    for (int i = 0; i < pages.size(); i++) {
      try (PreparedStatement statement =
          connection.prepareStatement(
              "INSERT INTO scan_plan_page (plan_id, page, body) VALUES (?, ?, ?)")) {
        statement.setObject(1, id);
        statement.setInt(2, first + i);
        statement.setString(3, pages.get(i));
        statement.executeUpdate();
      }
    }
  }

  /**
   * The owner's unexpired plan of that id. A plan without a job was planned within its request; one
   * with a job is completed once the job has stored its pages, failed once the job has failed for
   * good, and submitted until then.
   */
  public Optional<ScanPlan> find(Owner owner, UUID id) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT (SELECT array_agg(page ORDER BY page) FROM scan_plan_page"
                      + " WHERE plan_id = p.id)::text, j.state, j.phase, j.last_error"
                      + " FROM scan_plan p LEFT JOIN scan_plan_job j ON j.plan_id = p.id WHERE "
                      + OWNED)) {
            bindOwned(statement, 1, owner, id);
            try (ResultSet rs = statement.executeQuery()) {
              if (!rs.next()) {
                return Optional.empty();
              }
              String state = rs.getString(2);
              Status status =
                  state == null || "done".equals(rs.getString(3))
                      ? Status.COMPLETED
                      : "failed".equals(state) ? Status.FAILED : Status.SUBMITTED;
              return Optional.of(
                  new ScanPlan(
                      id,
                      status,
                      status == Status.COMPLETED ? pageNumbers(rs.getString(1)) : List.of(),
                      rs.getString(4)));
            }
          }
        });
  }

  /** A page of the owner's unexpired plan, as stored. */
  public Optional<String> page(Owner owner, UUID id, int page) {
    return database.read(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement(
                  "SELECT g.body FROM scan_plan p JOIN scan_plan_page g ON g.plan_id = p.id"
                      + " WHERE g.page = ? AND "
                      + OWNED)) {
            statement.setInt(1, page);
            bindOwned(statement, 2, owner, id);
            try (ResultSet rs = statement.executeQuery()) {
              return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
          }
        });
  }

  /** Removes the owner's unexpired plan and its pages; false if there was none. */
  public boolean delete(Owner owner, UUID id) {
    return database.autocommit(
        connection -> {
          try (PreparedStatement statement =
              connection.prepareStatement("DELETE FROM scan_plan p WHERE " + OWNED)) {
            bindOwned(statement, 1, owner, id);
            return statement.executeUpdate() == 1;
          }
        });
  }

  /** Removes up to {@code limit} expired plans with their pages; returns how many. */
  public int removeExpired(int limit) {
    return database.autocommit(connection -> removeExpired(connection, limit));
  }

  private static int removeExpired(Connection connection, int limit) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "DELETE FROM scan_plan WHERE id IN (SELECT id FROM scan_plan"
                + " WHERE expires_at < now() ORDER BY expires_at LIMIT ?"
                + " FOR UPDATE SKIP LOCKED)")) {
      statement.setInt(1, limit);
      return statement.executeUpdate();
    }
  }

  /** The condition on {@code p}, a scan_plan row, that it is the owner's and unexpired. */
  private static final String OWNED =
      "p.id = ? AND p.realm_id = ? AND p.principal = ? AND p.warehouse_id = ?"
          + " AND p.table_name = ? AND p.expires_at > now()";

  private static void bindOwned(PreparedStatement statement, int first, Owner owner, UUID id)
      throws SQLException {
    statement.setObject(first, id);
    statement.setString(first + 1, owner.realm());
    statement.setString(first + 2, owner.principal());
    statement.setLong(first + 3, owner.warehouseId());
    statement.setString(first + 4, owner.table());
  }

  /** The page numbers of PostgreSQL's text form of an integer array, {@code {1,2,3}} or NULL. */
  private static List<Integer> pageNumbers(String array) {
    List<Integer> pages = new ArrayList<>();
    if (array == null || array.length() <= 2) {
      return pages;
    }
    for (String page : array.substring(1, array.length() - 1).split(",")) {
      pages.add(Integer.parseInt(page));
    }
    return pages;
  }
}
