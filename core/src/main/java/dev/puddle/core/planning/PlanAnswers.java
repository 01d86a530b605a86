package dev.puddle.core.planning;

import dev.puddle.core.catalog.VersionCache;
import dev.puddle.core.metastore.Warehouse;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The {@code planTableScan} answers this execution environment gave whole, within their request,
 * kept with their gzip so that the same request on the same version of a table is answered again
 * without planning, writing or compressing anything. An answer stands for one metadata location
 * (one immutable version: its snapshots, manifests and specs), one request as iceberg-core writes
 * it and the warehouse's page size, and is used for nothing else: the bytes are those planning it
 * again would write. Only answers without storage credentials are kept, as credentials expire. Safe
 * to lose; bounded by weight (the answer's characters and its gzip's bytes), least recently used
 * table out first; thread-safe.
 */
public final class PlanAnswers {
  /** A kept answer: its JSON and that JSON gzipped. */
  public record Answer(String json, byte[] gzipped) {
    long weight() {
      return json.length() + (long) gzipped.length;
    }
  }

  /**
   * The most answers kept for one version: engines ask each query's own filter, most of them once,
   * and these would otherwise push the table's full scans, asked again and again, out of the bound
   * with answers nobody asks for twice (the one kept longest goes first).
   */
  static final int PER_VERSION = 8;

  /** What an answer depends on besides the table's version. */
  private record Question(String request, int tasksPerPage) {}

  private final VersionCache<Map<Question, Answer>> versions;

  private PlanAnswers(VersionCache<Map<Question, Answer>> versions) {
    this.versions = versions;
  }

  /** Answers of at most {@code maxWeight} in all. */
  public PlanAnswers(long maxWeight) {
    this(new VersionCache<>(maxWeight));
  }

  /** Answers kept within a sixteenth of the heap, at most 256 MB ({@link VersionCache}). */
  public static PlanAnswers ofHeapShare() {
    return new PlanAnswers(VersionCache.ofHeapShare());
  }

  /**
   * The answer kept for {@code request} (iceberg-core's JSON of it) on the table's version at
   * {@code metadataLocation} with pages of {@code tasksPerPage} tasks, if any.
   */
  public Optional<Answer> get(
      Warehouse warehouse,
      TableIdentifier table,
      String metadataLocation,
      String request,
      int tasksPerPage) {
    return versions
        .get(warehouse, table)
        .filter(kept -> kept.metadataLocation().equals(metadataLocation))
        .map(kept -> kept.value().get(new Question(request, tasksPerPage)));
  }

  /**
   * Keeps {@code answer} beside the answers kept for the same version; the answers of any other
   * version of the table are dropped.
   */
  public void put(
      Warehouse warehouse,
      TableIdentifier table,
      String metadataLocation,
      String request,
      int tasksPerPage,
      Answer answer) {
    Map<Question, Answer> answers = new LinkedHashMap<>();
    versions
        .get(warehouse, table)
        .filter(kept -> kept.metadataLocation().equals(metadataLocation))
        .ifPresent(kept -> answers.putAll(kept.value()));
    Question question = new Question(request, tasksPerPage);
    answers.remove(question);
    answers.put(question, answer);
    while (answers.size() > PER_VERSION) {
      answers.remove(answers.keySet().iterator().next());
    }
    long weight = answers.values().stream().mapToLong(Answer::weight).sum();
    versions.put(warehouse, table, metadataLocation, Collections.unmodifiableMap(answers), weight);
  }
}
