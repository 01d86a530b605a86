package dev.puddle.core.planning;

import dev.puddle.core.api.GzipAlongside.Written;
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
 * holds at most {@code tasksPerPage} tasks and {@code maxPageBytes} bytes of JSON (UTF-8, as it
 * travels), so that every response stays within Lambda's 6 MB, storage credentials and all; it is
 * sized from the bytes per task of the page before it (of the first tasks for the first page), so
 * that pages come close to that budget: a plan that fits one response is answered whole, and a
 * large plan takes few {@code fetchScanTasks} round trips. Its delete file references are {@link
 * DeleteFileReferences#corrected corrected}.
 */
public final class TaskPages {
  /**
   * A page: its tasks, their JSON and, if it was written with it (the first page, a {@code
   * planTableScan} answer), that JSON's gzip, else null.
   */
  public record Page(List<FileScanTask> tasks, String json, byte[] gzipped) {}

  /**
   * The tasks written first to learn their size, so that the first page, which a {@code
   * planTableScan} answers itself, is sized as the others are rather than guessed.
   */
  private static final int PROBE_TASKS = 100;

  /**
   * The share of the budget a page is sized to fill, room for tasks larger than the last page's.
   */
  private static final double FILL = 0.9;

  private final List<Page> pages;

  private TaskPages(List<Page> pages) {
    this.pages = List.copyOf(pages);
  }

  /**
   * Pages of {@code tasks}, each a {@code fetchScanTasks} response written with {@code write} (the
   * REST JSON mapper); one empty page for no tasks.
   */
  public static TaskPages of(
      List<FileScanTask> tasks,
      Map<Integer, PartitionSpec> specs,
      int tasksPerPage,
      int maxPageBytes,
      Function<Object, String> write) {
    return of(tasks, specs, tasksPerPage, maxPageBytes, write, null);
  }

  /**
   * {@link #of(List, Map, int, int, Function) Pages of tasks}, the first written by {@code
   * firstPage} (its JSON and, if it made one, its gzip) rather than as a {@code fetchScanTasks}
   * response (null: as one): a {@code planTableScan} answers its first page itself, and so a plan
   * of one page is written once, as its answer. Its JSON counts towards the page's budget as the
   * others' do.
   */
  @SuppressWarnings(
      "deprecation") // serializing file scan tasks needs the specs (iceberg-core 1.11)
  public static TaskPages of(
      List<FileScanTask> tasks,
      Map<Integer, PartitionSpec> specs,
      int tasksPerPage,
      int maxPageBytes,
      Function<Object, String> write,
      Function<List<FileScanTask>, Written> firstPage) {
    List<Page> pages = new ArrayList<>();
    Function<List<FileScanTask>, Written> page =
        slice -> {
          FetchScanTasksResponse response =
              FetchScanTasksResponse.builder()
                  .withFileScanTasks(slice)
                  .withSpecsById(specs)
                  .build();
          return new Written(DeleteFileReferences.corrected(write.apply(response), response), null);
        };
    Function<List<FileScanTask>, Written> first = firstPage != null ? firstPage : page;
    if (tasks.isEmpty()) {
      Written written = first.apply(List.of());
      pages.add(new Page(List.of(), written.text(), written.gzipped()));
    }
    // the next page's size, learnt from the last page's bytes per task (the first page's from the
    // first tasks'): with tasks of about one size, each page is written once, close to the budget
    int next = Math.min(tasksPerPage, PROBE_TASKS);
    if (tasks.size() > next) {
      List<FileScanTask> probe = tasks.subList(0, next);
      next =
          Math.clamp(fitting(next, bytes(page.apply(probe).text()), maxPageBytes), 1, tasksPerPage);
    }
    for (int from = 0; from < tasks.size(); ) {
      Function<List<FileScanTask>, Written> writer = pages.isEmpty() ? first : page;
      List<FileScanTask> slice = tasks.subList(from, Math.min(tasks.size(), from + next));
      Written written = writer.apply(slice);
      long size = bytes(written.text());
      while (size > maxPageBytes && slice.size() > 1) {
        slice =
            slice.subList(
                0, Math.clamp(fitting(slice.size(), size, maxPageBytes), 1, slice.size() - 1));
        written = writer.apply(slice);
        size = bytes(written.text());
      }
      pages.add(new Page(List.copyOf(slice), written.text(), written.gzipped()));
      from += slice.size();
      next = Math.clamp(fitting(slice.size(), size, maxPageBytes), 1, tasksPerPage);
    }
    return new TaskPages(pages);
  }

  /**
   * How many tasks of the size {@code bytes} shows for {@code tasks} fill {@link #FILL} of {@code
   * maxPageBytes}.
   */
  private static long fitting(int tasks, long bytes, int maxPageBytes) {
    return (long) (tasks * FILL * maxPageBytes / Math.max(1, bytes));
  }

  /**
   * The bytes of {@code json} in UTF-8, as a response carries it, counted without encoding it: a
   * page of ASCII takes a byte a character, one of other scripts up to three.
   */
  static long bytes(String json) {
    long bytes = json.length();
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (c >= 0x80) {
        // two bytes up to U+07FF, three above; a surrogate pair is four, two for each half
        bytes += c < 0x800 || Character.isSurrogate(c) ? 1 : 2;
      }
    }
    return bytes;
  }

  /** The pages, in order. */
  public List<Page> pages() {
    return pages;
  }

  public int size() {
    return pages.size();
  }
}
