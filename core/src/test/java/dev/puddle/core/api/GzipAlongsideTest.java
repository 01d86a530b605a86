package dev.puddle.core.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A body written through {@link GzipAlongside} is the bytes written, and its gzip inflates to them,
 * whatever the sizes of the writes and of the body against the chunks handed to the deflating
 * thread.
 */
class GzipAlongsideTest {
  @Test
  void theGzipInflatesToTheTextWritten() {
    // larger than several chunks, not a multiple of one, in writes of every size, with non-ASCII
    StringBuilder text = new StringBuilder();
    Random random = new Random(7);
    while (text.length() < 1_000_000) {
      text.append("{\"file-path\":\"s3://b/é水😀/").append(random.nextLong()).append("\"},");
    }
    byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
    GzipAlongside out = new GzipAlongside(1024);
    for (int at = 0; at < bytes.length; ) {
      int length = Math.min(bytes.length - at, random.nextInt(70_000));
      if (length == 1) {
        out.write(bytes[at]);
      } else {
        out.write(bytes, at, length);
      }
      at += length;
    }
    out.close(); // a writer's close does not end the body

    GzipAlongside.Written written = out.finish();

    assertThat(written.text()).isEqualTo(text.toString());
    assertThat(Gzip.decompress(written.gzipped())).isEqualTo(text.toString());
    assertThat(written.gzipped().length).isLessThan(bytes.length);
  }

  @Test
  void anEmptyBodyIsAnEmptyGzip() {
    GzipAlongside.Written written = new GzipAlongside(0).finish();

    assertThat(written.text()).isEmpty();
    assertThat(Gzip.decompress(written.gzipped())).isEmpty();
  }

  @Test
  void nothingIsWrittenOnceTheBodyIsAbandonedOrFinished() {
    GzipAlongside abandoned = new GzipAlongside(16);
    abandoned.write(new byte[] {'{'}, 0, 1);
    abandoned.abandon();
    assertThatThrownBy(() -> abandoned.write('}')).isInstanceOf(IllegalStateException.class);

    GzipAlongside finished = new GzipAlongside(16);
    finished.write('1');
    assertThat(finished.finish().text()).isEqualTo("1");
    finished.abandon(); // after finish: nothing happens
    assertThat(finished.finish().text()).isEqualTo("1");
  }
}
