package dev.puddle.core.planning;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;

/**
 * A plan's file scan tasks cut into pages, each the body of one {@code fetchScanTasks} response as
 * iceberg-core's serializers write it: the page's tasks and the delete files they reference. A page
 * holds at most {@code tasksPerPage} tasks and {@code maxPageBytes} characters of JSON, so that
 * every response stays well within Lambda's 6 MB, storage credentials and all; it is sized from the
 * characters per task of the page before it, so that pages come close to that budget and a large
 * plan takes few {@code fetchScanTasks} round trips. Its delete file references are {@link
 * DeleteFileReferences#corrected corrected}.
 */
public final class TaskPages {
  /** A page: its tasks and their JSON. */
  public record Page(List<FileScanTask> tasks, String json) {}

  /** The first page's tasks at most, before the tasks' size is known. */
  private static final int FIRST_PAGE_TASKS = 1_000;

  /**
   * The share of the budget a page is sized to fill, room for tasks larger than the last page's.
   */
  private static final double FILL = 0.9;

  private final List<Page> pages;

  private TaskPages(List<Page> pages) {
    this.pages = List.copyOf(pages);
  }

  /**
   * Pages of {@code tasks}, written with {@code write} (the REST JSON mapper); one empty page for
   * no tasks.
   */
  @SuppressWarnings(
      "deprecation") // serializing file scan tasks needs the specs (iceberg-core 1.11)
  public static TaskPages of(
      List<FileScanTask> tasks,
      Map<Integer, PartitionSpec> specs,
      int tasksPerPage,
      int maxPageBytes,
      Function<Object, String> write) {
    List<Page> pages = new ArrayList<>();
    Function<List<FileScanTask>, String> page =
        slice -> {
          FetchScanTasksResponse response =
              FetchScanTasksResponse.builder()
                  .withFileScanTasks(slice)
                  .withSpecsById(specs)
                  .build();
          return DeleteFileReferences.corrected(write.apply(response), response);
        };
    if (tasks.isEmpty()) {
      pages.add(new Page(List.of(), page.apply(List.of())));
    }
    // the next page's size, learnt from the last page's characters per task: with tasks of about
    // one size, each page is written once, close to the budget
    int next = Math.min(tasksPerPage, FIRST_PAGE_TASKS);
    for (int from = 0; from < tasks.size(); ) {
      List<FileScanTask> slice = tasks.subList(from, Math.min(tasks.size(), from + next));
      String json = page.apply(slice);
      while (json.length() > maxPageBytes && slice.size() > 1) {
        slice =
            slice.subList(
                0, Math.clamp(fitting(slice.size(), json, maxPageBytes), 1, slice.size() - 1));
        json = page.apply(slice);
      }
      pages.add(new Page(List.copyOf(slice), json));
      from += slice.size();
      next = Math.clamp(fitting(slice.size(), json, maxPageBytes), 1, tasksPerPage);
    }
    return new TaskPages(pages);
  }

  /**
   * How many tasks of the size {@code json} shows for {@code tasks} fill {@link #FILL} of {@code
   * maxPageBytes}.
   */
  private static long fitting(int tasks, String json, int maxPageBytes) {
    return (long) (tasks * FILL * maxPageBytes / Math.max(1, json.length()));
  }

  /** The pages, in order. */
  public List<Page> pages() {
    return pages;
  }

  public int size() {
    return pages.size();
  }
}
