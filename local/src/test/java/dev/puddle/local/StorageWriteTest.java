package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.storage.Storage;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.Test;

/** {@link Storage#write}: a whole object put to the twin's S3 in one request, replacing any. */
class StorageWriteTest {
  @Test
  void theWholeObjectIsWrittenAndAWriteAgainReplacesIt() throws Exception {
    FileIO io = TestTwin.get().storage().io();
    String location =
        "s3://warehouse/storage-write-test/" + UUID.randomUUID() + "/00000-a.metadata.json";

    Storage.write(io, location, "{\"first\":1}".getBytes(StandardCharsets.UTF_8));
    Storage.write(io, location, "{\"second\":2}".getBytes(StandardCharsets.UTF_8));

    try (InputStream in = io.newInputFile(location).newStream()) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("{\"second\":2}");
    }
  }
}
