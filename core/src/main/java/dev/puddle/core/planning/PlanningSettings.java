package dev.puddle.core.planning;

import dev.puddle.core.metastore.Warehouse;
import java.time.Duration;
import java.util.Map;
import org.apache.iceberg.rest.RESTCatalogProperties;

/**
 * How a warehouse's scans are planned, from its properties: whether clients are told to plan on the
 * server ({@value #MODE}, {@code client} by default; a table property of that name decides for its
 * table, see {@link #tableConfig}), and how many file scan tasks a page holds ({@value
 * #TASKS_PER_PAGE}), and from how many data files a scan is left to the planning worker ({@value
 * #ASYNC_DATA_FILES}). A page also holds at most {@link #MAX_PAGE_BYTES} bytes of JSON, and a
 * stored plan lives for {@link #LIFETIME}; neither can be changed, as both keep every response and
 * every plan within what a function can serve.
 */
public record PlanningSettings(boolean serverSide, int tasksPerPage, long asyncDataFiles) {
  /** The warehouse property (and client property) naming the planning mode. */
  public static final String MODE = RESTCatalogProperties.SCAN_PLANNING_MODE;

  /** The warehouse property bounding the file scan tasks of a page. */
  public static final String TASKS_PER_PAGE = "scan-planning.tasks-per-page";

  /**
   * So many that a page is bounded by {@link #MAX_PAGE_BYTES} alone: the fewer pages, the fewer
   * round trips a client makes for a large plan.
   */
  public static final int DEFAULT_TASKS_PER_PAGE = 100_000;

  /**
   * The warehouse property: a scan of a snapshot whose summary counts more data files than this is
   * not planned within its request but submitted to the planning worker. A scan under it that does
   * not finish within the request's deadline is submitted too.
   */
  public static final String ASYNC_DATA_FILES = "scan-planning.async-data-files";

  public static final long DEFAULT_ASYNC_DATA_FILES = 50_000;

  /**
   * The JSON a page may hold, in bytes of UTF-8 as it travels: two thirds of Lambda's 6 MB response
   * limit, the rest room for what a response carries besides (storage credentials, plan tasks,
   * headers). Counted in bytes rather than characters, so that a plan of ASCII paths the size of a
   * 10,000-file table's is answered in one response.
   */
  public static final int MAX_PAGE_BYTES = 4_000_000;

  /** How long a stored plan can be fetched: an hour after it was planned. */
  public static final Duration LIFETIME = Duration.ofHours(1);

  public PlanningSettings {
    if (tasksPerPage < 1) {
      throw new IllegalArgumentException("A page holds at least one task: " + tasksPerPage);
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

  /**
   * The settings of {@code warehouse}'s properties. A value that does not parse is passed over for
   * the default rather than refused, so that a mistyped property never fails the warehouse's
   * requests; docs/scan-planning.md says so.
   */
  public static PlanningSettings of(Warehouse warehouse) {
    Map<String, String> properties = warehouse.properties();
    boolean server;
    try {
      server =
          RESTCatalogProperties.ScanPlanningMode.fromString(properties.getOrDefault(MODE, "client"))
              == RESTCatalogProperties.ScanPlanningMode.SERVER;
    } catch (IllegalArgumentException e) {
      server = false;
    }
    int tasks;
    try {
      tasks = Integer.parseInt(properties.getOrDefault(TASKS_PER_PAGE, "").strip());
    } catch (NumberFormatException e) {
      tasks = DEFAULT_TASKS_PER_PAGE;
    }
    long async;
    try {
      async = Long.parseLong(properties.getOrDefault(ASYNC_DATA_FILES, "").strip());
    } catch (NumberFormatException e) {
      async = DEFAULT_ASYNC_DATA_FILES;
    }
    return new PlanningSettings(
        server,
        tasks > 0 ? tasks : DEFAULT_TASKS_PER_PAGE,
        async >= 0 ? async : DEFAULT_ASYNC_DATA_FILES);
  }
}
