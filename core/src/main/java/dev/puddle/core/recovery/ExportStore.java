package dev.puddle.core.recovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.metastore.CatalogExport;
import dev.puddle.core.storage.S3Location;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * Where catalog exports live: {@code <location>/<timestamp>.json}, one per run, and {@code
 * <location>/latest.json}, a pointer to the newest, written after it. Both are written with SSE-S3.
 * Writing an export is idempotent: a run that fails leaves the previous pointer in place.
 */
public final class ExportStore {
  /** The pointer's name under the export location. */
  public static final String LATEST = "latest.json";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DateTimeFormatter NAME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

  private final S3Objects s3;
  private final S3Location location;

  /** {@code location} is a folder-like S3 URI, e.g. {@code s3://bucket/_puddle/export}. */
  public ExportStore(S3Objects s3, String location) {
    this.s3 = s3;
    this.location =
        S3Location.parse(location.endsWith("/") ? location : location + "/")
            .orElseThrow(() -> new IllegalArgumentException("Not an S3 location: " + location));
  }

  /** The export location as an {@code s3://} URI ending with a slash. */
  public String location() {
    return location.uri();
  }

  /** Reads the catalog and writes an export and then the pointer to it; returns its location. */
  public String write(CatalogExport export, Clock clock) {
    Instant now = clock.instant();
    ObjectNode document = export.read(now);
    String key = location.key() + NAME.format(now) + ".json";
    s3.put(location.bucket(), key, bytes(document), "application/json");
    String written = "s3://" + location.bucket() + "/" + key;
    ObjectNode pointer = JSON.createObjectNode();
    pointer.put("location", written);
    pointer.put("exportedAt", now.toString());
    s3.put(location.bucket(), location.key() + LATEST, bytes(pointer), "application/json");
    return written;
  }

  /** The newest export the pointer names, with its location; empty if none was written. */
  public Optional<Latest> latest() {
    Optional<byte[]> pointer = s3.get(location.bucket(), location.key() + LATEST);
    if (pointer.isEmpty()) {
      return Optional.empty();
    }
    String exported = parse(pointer.get()).path("location").asText();
    S3Location at =
        S3Location.parse(exported)
            .orElseThrow(() -> new IllegalStateException("Bad export pointer: " + exported));
    byte[] document =
        s3.get(at.bucket(), at.key())
            .orElseThrow(
                () -> new IllegalStateException("The latest export is missing: " + exported));
    return Optional.of(new Latest(exported, parse(document)));
  }

  /** An export document and where it was read. */
  public record Latest(String location, JsonNode document) {}

  private static byte[] bytes(JsonNode node) {
    try {
      return JSON.writeValueAsBytes(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode parse(byte[] bytes) {
    try {
      return JSON.readTree(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
