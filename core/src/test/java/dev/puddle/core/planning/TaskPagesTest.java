package dev.puddle.core.planning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.api.GzipAlongside;
import dev.puddle.core.rest.RestJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.BaseFileScanTask;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.PartitionSpecParser;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.ResidualEvaluator;
import org.apache.iceberg.rest.PlanStatus;
import org.apache.iceberg.rest.responses.FetchScanTasksResponse;
import org.apache.iceberg.rest.responses.FetchScanTasksResponseParser;
import org.apache.iceberg.rest.responses.PlanTableScanResponse;
import org.apache.iceberg.rest.responses.PlanTableScanResponseParser;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.JsonUtil;
import org.junit.jupiter.api.Test;

/**
 * Pages hold at most their count of tasks and their size of JSON, keep the tasks in order, and read
 * back with iceberg-core's parser as the tasks they were cut from.
 */
class TaskPagesTest {
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
  private static final PartitionSpec SPEC = PartitionSpec.unpartitioned();
  private static final Map<Integer, PartitionSpec> SPECS = Map.of(SPEC.specId(), SPEC);

  @Test
  void noTasksIsOneEmptyPage() {
    TaskPages pages = TaskPages.of(List.of(), SPECS, 10, 1_000_000, RestJson::write);
    assertThat(pages.size()).isEqualTo(1);
    assertThat(parse(pages.pages().get(0).json()).fileScanTasks()).isEmpty();
  }

  @Test
  void pagesHoldAtMostTheirTasksAndCharactersInOrder() {
    List<FileScanTask> tasks = tasks(25);
    int oneTask = RestJson.write(page(tasks.subList(0, 1))).length();

    TaskPages byCount = TaskPages.of(tasks, SPECS, 10, 1_000_000, RestJson::write);
    assertThat(byCount.pages()).extracting(page -> page.tasks().size()).containsExactly(10, 10, 5);

    // room for about three tasks: every page is cut to what fits
    TaskPages bySize = TaskPages.of(tasks, SPECS, 10, oneTask * 3, RestJson::write);
    assertThat(bySize.pages())
        .allSatisfy(p -> assertThat(p.json().length()).isLessThan(oneTask * 3));
    assertThat(bySize.size()).isGreaterThan(byCount.size());

    List<String> read = new ArrayList<>();
    for (TaskPages.Page page : bySize.pages()) {
      parse(page.json()).fileScanTasks().forEach(task -> read.add(task.file().location()));
      assertThat(parse(page.json()).fileScanTasks()).hasSameSizeAs(page.tasks());
    }
    assertThat(read)
        .containsExactlyElementsOf(tasks.stream().map(t -> t.file().location()).toList());
  }

  @Test
  void pagesAreSizedFromThePageBeforeToComeCloseToTheBudget() {
    List<FileScanTask> tasks = tasks(100);
    int oneTask = RestJson.write(page(tasks.subList(0, 1))).length();
    int budget = oneTask * 20;

    TaskPages pages = TaskPages.of(tasks, SPECS, 1_000, budget, RestJson::write);

    assertThat(pages.pages()).allSatisfy(p -> assertThat(p.json().length()).isLessThan(budget));
    // every page but the last fills most of the budget: not halved far below what fits
    assertThat(pages.pages().subList(0, pages.size() - 1))
        .allSatisfy(p -> assertThat(p.json().length()).isGreaterThan(budget * 3 / 4));
    assertThat(pages.pages().stream().mapToInt(p -> p.tasks().size()).sum()).isEqualTo(100);
  }

  @Test
  void aPlanThatFitsTheBudgetIsOnePageHoweverManyTasks() {
    // more tasks than the first few written to learn their size: still one page, not cut short
    List<FileScanTask> tasks = tasks(5_000);

    TaskPages pages = TaskPages.of(tasks, SPECS, 100_000, 4_000_000, RestJson::write);

    assertThat(pages.pages()).singleElement().satisfies(p -> assertThat(p.tasks()).hasSize(5_000));
  }

  @Test
  void theFirstPageIsWrittenByItsOwnWriterWithinTheBudget() {
    List<FileScanTask> tasks = tasks(50);
    int oneTask = RestJson.write(page(tasks.subList(0, 1))).length();
    int budget = oneTask * 20;
    List<Integer> firstWrites = new ArrayList<>();

    TaskPages pages =
        TaskPages.of(
            tasks,
            SPECS,
            1_000,
            budget,
            RestJson::write,
            slice -> {
              firstWrites.add(slice.size());
              return new GzipAlongside.Written(
                  "{\"first\":" + RestJson.write(page(slice)) + "}", new byte[] {1});
            });

    assertThat(pages.pages().get(0).json()).startsWith("{\"first\":");
    assertThat(pages.pages().get(0).gzipped()).containsExactly(1);
    assertThat(pages.pages().subList(1, pages.size()))
        .allSatisfy(p -> assertThat(p.gzipped()).isNull());
    assertThat(pages.pages().subList(1, pages.size()))
        .allSatisfy(p -> assertThat(p.json()).doesNotStartWith("{\"first\":"));
    assertThat(pages.pages()).allSatisfy(p -> assertThat(p.json().length()).isLessThan(budget));
    assertThat(firstWrites).last().isEqualTo(pages.pages().get(0).tasks().size());
  }

  @Test
  void theBudgetCountsBytesOfUtf8NotCharacters() {
    assertThat(TaskPages.bytes("{\"a\":1}")).isEqualTo(7);
    assertThat(TaskPages.bytes("é")).isEqualTo(2); // U+00E9
    assertThat(TaskPages.bytes("水")).isEqualTo(3); // U+6C34
    assertThat(TaskPages.bytes("😀")).isEqualTo(4); // a surrogate pair
    String text = "s3://b/é水😀/x.parquet";
    assertThat(TaskPages.bytes(text))
        .isEqualTo(text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);

    // paths of three-byte characters: pages are cut by their bytes, three times their characters
    List<FileScanTask> tasks = tasks(30, "s3://bucket/水水水水水水水水水水水水水水水水水水水水/file-");
    long oneTask = TaskPages.bytes(RestJson.write(page(tasks.subList(0, 1))));
    int budget = (int) oneTask * 5;
    TaskPages pages = TaskPages.of(tasks, SPECS, 1_000, budget, RestJson::write);
    assertThat(pages.pages())
        .allSatisfy(
            p ->
                assertThat(p.json().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                    .isLessThanOrEqualTo(budget));
    assertThat(pages.size()).isGreaterThanOrEqualTo(6);
  }

  @Test
  void aTaskLargerThanAPageIsAPageOfItsOwn() {
    TaskPages pages = TaskPages.of(tasks(3), SPECS, 10, 10, RestJson::write);
    assertThat(pages.pages()).extracting(page -> page.tasks().size()).containsExactly(1, 1, 1);
  }

  @Test
  @SuppressWarnings(
      "deprecation") // serializing file scan tasks needs the specs (iceberg-core 1.11)
  void deletionVectorsInOnePuffinFileEachReferenceTheirOwnDataFile() throws IOException {
    // engines write the vectors of many data files as blobs of one Puffin file
    List<FileScanTask> tasks = new ArrayList<>();
    for (FileScanTask task : tasks(3)) {
      DeleteFile vector =
          FileMetadata.deleteFileBuilder(SPEC)
              .ofPositionDeletes()
              .withFormat(FileFormat.PUFFIN)
              .withPath("s3://bucket/t/data/vectors.puffin")
              .withFileSizeInBytes(1024)
              .withRecordCount(1)
              .withReferencedDataFile(task.file().location())
              .withContentOffset(4 + 100L * tasks.size())
              .withContentSizeInBytes(60)
              .build();
      tasks.add(
          new BaseFileScanTask(
              (DataFile) task.file(),
              new DeleteFile[] {vector},
              SchemaParser.toJson(SCHEMA),
              PartitionSpecParser.toJson(SPEC),
              ResidualEvaluator.of(SPEC, Expressions.alwaysTrue(), true)));
    }

    TaskPages pages = TaskPages.of(tasks, SPECS, 10, 1_000_000, RestJson::write);
    assertThat(parse(pages.pages().get(0).json()).fileScanTasks())
        .hasSize(3)
        .allSatisfy(
            task ->
                assertThat(task.deletes())
                    .singleElement()
                    .extracting(DeleteFile::referencedDataFile)
                    .isEqualTo(task.file().location()));
    // the first page a planTableScan response holds itself, corrected the same way
    PlanTableScanResponse response =
        PlanTableScanResponse.builder()
            .withPlanStatus(PlanStatus.COMPLETED)
            .withSpecsById(SPECS)
            .withFileScanTasks(tasks)
            .build();
    String json = DeleteFileReferences.corrected(RestJson.write(response), response);
    assertThat(
            PlanTableScanResponseParser.fromJson(JsonUtil.mapper().readTree(json), SPECS, true)
                .fileScanTasks())
        .allSatisfy(
            task ->
                assertThat(task.deletes().getFirst().referencedDataFile())
                    .isEqualTo(task.file().location()));
  }

  @SuppressWarnings(
      "deprecation") // serializing file scan tasks needs the specs (iceberg-core 1.11)
  private static FetchScanTasksResponse page(List<FileScanTask> tasks) {
    return FetchScanTasksResponse.builder().withFileScanTasks(tasks).withSpecsById(SPECS).build();
  }

  private static FetchScanTasksResponse parse(String json) {
    try {
      return FetchScanTasksResponseParser.fromJson(JsonUtil.mapper().readTree(json), SPECS, true);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<FileScanTask> tasks(int count) {
    return tasks(count, "s3://bucket/t/data/file-");
  }

  private static List<FileScanTask> tasks(int count, String prefix) {
    List<FileScanTask> tasks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      DataFile file =
          DataFiles.builder(SPEC)
              .withPath(prefix + i + ".parquet")
              .withFormat(FileFormat.PARQUET)
              .withFileSizeInBytes(1024)
              .withRecordCount(10)
              .build();
      tasks.add(
          new BaseFileScanTask(
              file,
              null,
              SchemaParser.toJson(SCHEMA),
              PartitionSpecParser.toJson(SPEC),
              ResidualEvaluator.of(SPEC, Expressions.alwaysTrue(), true)));
    }
    return tasks;
  }
}
