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
 * every response stays well within Lambda's 6 MB, storage credentials and all. Its delete file
 * references are {@link DeleteFileReferences#corrected corrected}.
 */
public final class TaskPages {
  /** A page: its tasks and their JSON. */
  public record Page(List<FileScanTask> tasks, String json) {}

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
    for (int from = 0; from < tasks.size(); from += tasksPerPage) {
      cut(
          tasks.subList(from, Math.min(tasks.size(), from + tasksPerPage)),
          maxPageBytes,
          page,
          pages);
    }
    return new TaskPages(pages);
  }

  /** Halves a slice until each half's JSON fits; a single task is a page however large. */
  private static void cut(
      List<FileScanTask> slice,
      int maxPageBytes,
      Function<List<FileScanTask>, String> page,
      List<Page> pages) {
    String json = page.apply(slice);
    if (json.length() <= maxPageBytes || slice.size() == 1) {
      pages.add(new Page(List.copyOf(slice), json));
      return;
    }
    int half = slice.size() / 2;
    cut(slice.subList(0, half), maxPageBytes, page, pages);
    cut(slice.subList(half, slice.size()), maxPageBytes, page, pages);
  }

  /** The pages, in order. */
  public List<Page> pages() {
    return pages;
  }

  public int size() {
    return pages.size();
  }
}
