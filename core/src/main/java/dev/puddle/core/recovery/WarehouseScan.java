package dev.puddle.core.recovery;

import com.fasterxml.jackson.databind.JsonNode;
import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.metastore.CatalogObject.Kind;
import dev.puddle.core.storage.S3Location;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.util.JsonUtil;
import org.apache.iceberg.view.ViewHistoryEntry;
import org.apache.iceberg.view.ViewMetadata;
import org.apache.iceberg.view.ViewMetadataParser;

/**
 * Finds every table and view under a warehouse location by its metadata files, and of each (one
 * table or view uuid) its newest file. Newest is decided by the metadata, never by object dates (a
 * copy or a restore changes those): of a table, the files no other file of the same table names in
 * its {@code metadata-log}, then the highest {@code last-sequence-number}, the longest log, the
 * highest version in the file name; of a view, the longest {@code version-log}, then its latest
 * entry, then the file name's version. Files that are not metadata of either kind are reported as
 * skipped, with the parser's reason.
 */
public final class WarehouseScan {
  private static final Pattern FILE_VERSION = Pattern.compile("^v?(\\d+)[-.]");

  /** The newest metadata file of one table or view: where it is, and its content. */
  public record Found(
      Kind kind, String uuid, String metadataLocation, String location, String json) {}

  /** A file that was not used, and why. */
  public record Skipped(String location, String reason) {}

  /** What a scan found: the newest file of each object, and how many older ones it passed over. */
  public record Result(int scanned, List<Found> newest, int superseded, List<Skipped> skipped) {}

  /** One parsed file, reduced to what ordering needs. */
  private record Candidate(
      Found found, long sequence, int logSize, long lastEntry, long fileVersion, Set<String> log) {}

  private final S3Objects s3;

  public WarehouseScan(S3Objects s3) {
    this.s3 = s3;
  }

  /** Scans everything under {@code warehouseLocation}, leaving out keys under {@code excluded}. */
  public Result scan(String warehouseLocation, String excluded) {
    S3Location base =
        S3Location.parse(warehouseLocation)
            .orElseThrow(
                () -> new IllegalArgumentException("Not an S3 location: " + warehouseLocation));
    S3Location skip = excluded == null ? null : S3Location.parse(excluded).orElse(null);
    String prefix =
        base.key().isEmpty() || base.key().endsWith("/") ? base.key() : base.key() + "/";
    Map<String, List<Candidate>> byUuid = new LinkedHashMap<>();
    List<Skipped> skipped = new ArrayList<>();
    int scanned = 0;
    String after = null;
    do {
      S3Objects.Listing page = s3.list(base.bucket(), prefix, after);
      for (String key : page.keys()) {
        if (!isMetadataFile(key)) {
          continue;
        }
        S3Location at = new S3Location(base.bucket(), key);
        if (skip != null && at.isBelow(skip)) {
          continue;
        }
        scanned++;
        try {
          Candidate candidate = parse(at.uri(), key);
          byUuid.computeIfAbsent(candidate.found().uuid(), u -> new ArrayList<>()).add(candidate);
        } catch (RuntimeException e) {
          skipped.add(new Skipped(at.uri(), "not table or view metadata: " + reason(e)));
        }
      }
      after = page.continueAfter();
    } while (after != null);

    List<Found> newest = new ArrayList<>();
    int superseded = 0;
    for (List<Candidate> files : byUuid.values()) {
      Set<String> named = new HashSet<>();
      files.forEach(c -> named.addAll(c.log()));
      // a view's files name no earlier files: every older one is simply superseded
      boolean view = files.get(0).found().kind() == Kind.VIEW;
      List<Candidate> heads =
          view
              ? List.of()
              : files.stream().filter(c -> !named.contains(c.found().metadataLocation())).toList();
      List<Candidate> pool = heads.isEmpty() ? files : heads;
      Candidate best =
          pool.stream()
              .max(
                  Comparator.comparingLong(Candidate::sequence)
                      .thenComparingInt(Candidate::logSize)
                      .thenComparingLong(Candidate::lastEntry)
                      .thenComparingLong(Candidate::fileVersion))
              .orElseThrow();
      newest.add(best.found());
      superseded += view ? files.size() - 1 : files.size() - heads.size();
      for (Candidate head : heads) {
        if (head != best) {
          skipped.add(
              new Skipped(
                  head.found().metadataLocation(),
                  "an older branch of "
                      + head.found().kind().sql()
                      + " "
                      + head.found().uuid()
                      + " (no later file names it, but "
                      + best.found().metadataLocation()
                      + " is newer)"));
        }
      }
    }
    return new Result(scanned, newest, superseded, skipped);
  }

  private static boolean isMetadataFile(String key) {
    return key.endsWith(".metadata.json") || key.endsWith(".metadata.json.gz");
  }

  private Candidate parse(String uri, String key) {
    String json = read(uri, key);
    JsonNode node = JsonUtil.parse(json, n -> n);
    long version = fileVersion(key);
    if (node.has("view-uuid")) {
      ViewMetadata view = ViewMetadataParser.fromJson(uri, node);
      List<ViewHistoryEntry> history = view.history();
      long last = history.isEmpty() ? 0 : history.get(history.size() - 1).timestampMillis();
      return new Candidate(
          new Found(Kind.VIEW, view.uuid(), uri, view.location(), json),
          0,
          history.size(),
          last,
          version,
          Set.of());
    }
    TableMetadata table = TableMetadataParser.fromJson(uri, node);
    Set<String> log = new HashSet<>();
    for (TableMetadata.MetadataLogEntry entry : table.previousFiles()) {
      log.add(entry.file());
    }
    return new Candidate(
        new Found(Kind.TABLE, table.uuid(), uri, table.location(), json),
        table.lastSequenceNumber(),
        log.size(),
        table.lastUpdatedMillis(),
        version,
        log);
  }

  private String read(String uri, String key) {
    byte[] bytes =
        s3.get(S3Location.parse(uri).orElseThrow().bucket(), key)
            .orElseThrow(() -> new IllegalStateException("gone while scanning"));
    // gzip by its magic bytes: Iceberg names compressed files .metadata.json.gz or
    // .gz.metadata.json
    if (bytes.length > 1 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) {
      try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
        bytes = in.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** The version a metadata file's name starts with ({@code 00003-…} or {@code v3.…}), else 0. */
  static long fileVersion(String key) {
    String name = key.substring(key.lastIndexOf('/') + 1);
    Matcher matcher = FILE_VERSION.matcher(name);
    try {
      return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String reason(RuntimeException e) {
    String message = e.getMessage();
    return message == null ? e.getClass().getSimpleName() : message.lines().findFirst().orElse("");
  }
}
