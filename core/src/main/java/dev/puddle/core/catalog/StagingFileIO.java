package dev.puddle.core.catalog;

import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.inmemory.InMemoryOutputFile;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * Receives, in memory, the files iceberg-core writes while a commit stages its metadata file, so
 * that the file's name and bytes are iceberg-core's own while Puddle uploads them in background.
 * Nothing can be read from it or deleted.
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

  @Override
  public InputFile newInputFile(String path) {
    throw new UnsupportedOperationException("A staging file IO is write-only");
  }

  @Override
  public void deleteFile(String path) {
    throw new UnsupportedOperationException("A staging file IO is write-only");
  }
}
