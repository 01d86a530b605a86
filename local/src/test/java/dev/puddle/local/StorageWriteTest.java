package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.storage.Storage;
import dev.puddle.local.OperationCostTest.S3Kind;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.io.FileIO;
import org.junit.jupiter.api.Test;

/**
 * {@link Storage#write} and {@link S3Objects#put}: a whole object put to the twin's S3 in one
 * request, replacing any, its body sent whole.
 */
class StorageWriteTest {
  @Test
  void theWholeObjectIsWrittenInOneRequestSentWholeAndAWriteAgainReplacesIt() throws Exception {
    try (CountedS3 s3 = CountedS3.start(TestTwin.get())) {
      FileIO io = s3.storage().io();
      String location =
          "s3://warehouse/storage-write-test/" + UUID.randomUUID() + "/00000-a.metadata.json";

      Storage.write(io, location, "{\"first\":1}".getBytes(StandardCharsets.UTF_8));
      Storage.write(io, location, "{\"second\":2}".getBytes(StandardCharsets.UTF_8));
      try (InputStream in = TestTwin.get().storage().io().newInputFile(location).newStream()) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo("{\"second\":2}");
      }

      new S3Objects(s3.client())
          .put("warehouse", location.substring("s3://warehouse/".length()), new byte[2048], null);

      assertThat(s3.byKind())
          .as("one PUT per write, nothing else")
          .isEqualTo(Map.of(S3Kind.PUT, 3));
      // sent aws-chunked, a body goes out in writes of a few bytes, and an S3-compatible server
      // that answers before its trailer resets the connection: a retry after the SDK's backoff
      assertThat(s3.awsChunkedUploads()).as("uploads sent aws-chunked").isZero();
    }
  }
}
