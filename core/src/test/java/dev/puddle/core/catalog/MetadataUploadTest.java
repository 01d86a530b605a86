package dev.puddle.core.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.apache.iceberg.exceptions.RuntimeIOException;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.junit.jupiter.api.Test;

class MetadataUploadTest {
  @Test
  void aWaitEndsWithTheWholeFileWritten() throws Exception {
    InMemoryFileIO io = new InMemoryFileIO();
    byte[] json = "{\"format-version\":2}".getBytes(StandardCharsets.UTF_8);

    MetadataUpload.start(io, "s3://lake/t/metadata/00001-a.metadata.json", json).await();

    try (var in = io.newInputFile("s3://lake/t/metadata/00001-a.metadata.json").newStream()) {
      assertThat(in.readAllBytes()).isEqualTo(json);
    }
  }

  @Test
  void aFailedUploadFailsTheWaitWithItsCauseAndNotTheQuietWait() {
    MetadataUpload upload =
        MetadataUpload.start(
            new RefusingFileIO(), "s3://lake/t/metadata/00001-a.metadata.json", new byte[] {1});

    assertThatThrownBy(upload::await)
        .isInstanceOf(RuntimeIOException.class)
        .hasMessageContaining("refused");
    upload.awaitQuietly();
  }

  /** Object storage that refuses every write. */
  private static final class RefusingFileIO implements FileIO {
    @Override
    public OutputFile newOutputFile(String path) {
      throw new RuntimeIOException("refused");
    }

    @Override
    public InputFile newInputFile(String path) {
      throw new UnsupportedOperationException();
    }

    @Override
    public void deleteFile(String path) {
      throw new UnsupportedOperationException();
    }
  }
}
