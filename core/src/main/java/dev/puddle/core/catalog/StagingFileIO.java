package dev.puddle.core.catalog;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.TableMetadataParser;
import org.apache.iceberg.TableMetadataParser.Codec;
import org.apache.iceberg.inmemory.InMemoryOutputFile;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * Receives, in memory, the files iceberg-core writes while a commit stages its metadata file, so
 * that the file's name and bytes are iceberg-core's own while Puddle uploads them in background,
 * and its text is the JSON stored beside the pointer. Nothing can be read from it or deleted.
 */
final class StagingFileIO implements FileIO {
  private final Map<String, InMemoryOutputFile> files = new HashMap<>();

  @Override
  public OutputFile newOutputFile(String path) {
    InMemoryOutputFile file = new InMemoryOutputFile(path);
    files.put(path, file);
    return file;
  }

  /** The bytes written to {@code path}. */
  byte[] written(String path) {
    InMemoryOutputFile file = files.get(path);
    if (file == null) {
      throw new IllegalStateException("No metadata file was staged at " + path);
    }
    return file.toByteArray();
  }

  /**
   * The JSON of {@code metadata}, staged as the file {@code bytes} at {@code path}: a plain
   * metadata file is iceberg-core's {@link TableMetadataParser#toJson(TableMetadata)} text in UTF-8
   * (the same generator, without pretty printing), so its text is taken instead of serializing the
   * metadata a second time, a millisecond of a commit's time on a table of hundreds of snapshots. A
   * compressed one ({@code write.metadata.compression-codec}) is serialized again.
   */
  static String json(String path, byte[] bytes, TableMetadata metadata) {
    return Codec.fromFileName(path) == Codec.NONE
        ? new String(bytes, StandardCharsets.UTF_8)
        : TableMetadataParser.toJson(metadata);
  }

  @Override
  public InputFile newInputFile(String path) {
    throw new UnsupportedOperationException("A staging file IO is write-only");
  }

  @Override
  public void deleteFile(String path) {
    throw new UnsupportedOperationException("A staging file IO is write-only");
  }
}
