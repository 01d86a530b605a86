package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.storage.Storage;
import dev.puddle.local.OperationCostTest.S3Kind;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.Test;

/** {@link Storage#write}: a whole object put to the twin's S3 in one request, replacing any. */
class StorageWriteTest {
  @Test
  void theWholeObjectIsWrittenInOneRequestAndAWriteAgainReplacesIt() throws Exception {
    try (CountedS3 s3 = CountedS3.start(TestTwin.get())) {
      FileIO io = s3.storage().io();
      String location =
          "s3://warehouse/storage-write-test/" + UUID.randomUUID() + "/00000-a.metadata.json";

      Storage.write(io, location, "{\"first\":1}".getBytes(StandardCharsets.UTF_8));
      Storage.write(io, location, "{\"second\":2}".getBytes(StandardCharsets.UTF_8));

      assertThat(s3.byKind())
          .as("one PUT per write, nothing else")
          .isEqualTo(Map.of(S3Kind.PUT, 2));
      try (InputStream in = TestTwin.get().storage().io().newInputFile(location).newStream()) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo("{\"second\":2}");
      }
    }
  }
}
