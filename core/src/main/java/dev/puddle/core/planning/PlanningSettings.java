package dev.puddle.core.planning;

import dev.puddle.core.metastore.Warehouse;
import java.time.Duration;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTCatalogProperties;

/**
 * How a warehouse's scans are planned, from its properties: whether clients are told to plan on the
 * server ({@value #MODE}, {@code client} by default), and how many file scan tasks a page holds
 * ({@value #TASKS_PER_PAGE}). A page also holds at most {@link #MAX_PAGE_CHARS} characters of JSON,
 * and a stored plan lives for {@link #LIFETIME}; neither can be changed, as both keep every
 * response and every plan within what a function can serve.
 */
public record PlanningSettings(boolean serverSide, int tasksPerPage) {
  /** The warehouse property (and client property) naming the planning mode. */
  public static final String MODE = RESTCatalogProperties.SCAN_PLANNING_MODE;

  /** The warehouse property bounding the file scan tasks of a page. */
  public static final String TASKS_PER_PAGE = "scan-planning.tasks-per-page";

  public static final int DEFAULT_TASKS_PER_PAGE = 1_000;

  /** The JSON a page may hold: 2 MB, a third of Lambda's 6 MB response limit. */
  public static final int MAX_PAGE_CHARS = 2_000_000;

  /** How long a stored plan can be fetched: an hour after it was planned. */
  public static final Duration LIFETIME = Duration.ofHours(1);

  public PlanningSettings {
    if (tasksPerPage < 1) {
      throw new BadRequestException(
          "Invalid %s: %s (must be positive)", TASKS_PER_PAGE, tasksPerPage);
    }
  }

  /**
   * The {@code config} a table's load response carries for its planning mode: the table property
   * {@value #MODE}, which clients take over their own setting and the warehouse's; nothing if the
   * table has none or one no client would understand.
   */
  public static Map<String, String> tableConfig(Map<String, String> tableProperties) {
    String mode = tableProperties.get(MODE);
    if (mode == null) {
      return Map.of();
    }
    try {
      return Map.of(MODE, RESTCatalogProperties.ScanPlanningMode.fromString(mode).modeName());
    } catch (IllegalArgumentException e) {
      return Map.of();
    }
  }

  /** The settings of {@code warehouse}'s properties. */
  public static PlanningSettings of(Warehouse warehouse) {
    String mode = warehouse.properties().getOrDefault(MODE, "client");
    String tasks = warehouse.properties().get(TASKS_PER_PAGE);
    try {
      return new PlanningSettings(
          RESTCatalogProperties.ScanPlanningMode.fromString(mode)
              == RESTCatalogProperties.ScanPlanningMode.SERVER,
          tasks == null ? DEFAULT_TASKS_PER_PAGE : Integer.parseInt(tasks.strip()));
    } catch (IllegalArgumentException e) {
      throw new BadRequestException(
          "Invalid scan planning property of warehouse %s: %s", warehouse.name(), e.getMessage());
    }
  }
}
