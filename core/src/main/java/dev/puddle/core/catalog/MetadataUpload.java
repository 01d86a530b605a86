package dev.puddle.core.catalog;

import dev.puddle.core.api.Deadline;
import dev.puddle.core.api.RequestScope;
import dev.puddle.core.storage.Storage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.apache.iceberg.io.FileIO;

/**
 * A commit's new metadata file, uploaded to object storage in the background while the commit's
 * database statements run; the commit waits for it before {@code COMMIT}, so the pointer never
 * names a file that is not there, and an upload that fails commits nothing.
 */
final class MetadataUpload {
  private static final ExecutorService UPLOADS =
      Executors.newCachedThreadPool(
          task -> {
            Thread thread = new Thread(task, "puddle-metadata-upload");
            thread.setDaemon(true);
            return thread;
          });

  private final Future<?> written;
  private final Deadline deadline;

  private MetadataUpload(Future<?> written, Deadline deadline) {
    this.written = written;
    this.deadline = deadline;
  }

  /** Starts writing {@code bytes}, the whole file, to {@code location}. */
  static MetadataUpload start(FileIO io, String location, byte[] bytes) {
    Future<?> written = UPLOADS.submit(() -> Storage.write(io, location, bytes));
    return new MetadataUpload(written, RequestScope.current().deadline());
  }

  /** Waits until the file is written, within the request's deadline; throws if it was not. */
  void await() {
    try {
      if (deadline.isNone()) {
        written.get();
      } else {
        written.get(Math.max(0, deadline.remainingMillis()), TimeUnit.MILLISECONDS);
      }
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException cause
          ? cause
          : new IllegalStateException(e.getCause());
    } catch (TimeoutException e) {
      throw new ServiceUnavailableException(
          "The metadata file could not be written in time; nothing was committed");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServiceUnavailableException("Interrupted writing the metadata file");
    }
  }

  /** Waits until the upload ended, however it ended (within the deadline): before a delete. */
  void awaitQuietly() {
    try {
      await();
    } catch (RuntimeException e) {
      // not written, or not in time: deleting what there is, if anything, is all that is left
    }
  }
}
