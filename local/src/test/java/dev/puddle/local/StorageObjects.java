package dev.puddle.local;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.StreamSupport;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Objects in the twin's bucket, by their {@code s3://} location: put straight to S3 (as an engine
 * writing files the catalog has not heard of), checked and listed through the twin's own FileIO.
 */
final class StorageObjects {
  private static final String PREFIX = "s3://" + LocalTwin.BUCKET + "/";

  private StorageObjects() {}

  /** The object key of a location in the twin's bucket. */
  static String key(String location) {
    return location.substring(PREFIX.length());
  }

  static void put(S3Client s3, String location, RequestBody content) {
    s3.putObject(b -> b.bucket(LocalTwin.BUCKET).key(key(location)), content);
  }

  /** Puts {@code content} at every location, eight at a time. */
  static void putAll(S3Client s3, Collection<String> locations, String content) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> puts = new ArrayList<>();
      for (String location : locations) {
        puts.add(threads.submit(() -> put(s3, location, RequestBody.fromString(content))));
      }
      for (Future<?> put : puts) {
        put.get();
      }
    } finally {
      threads.shutdown();
    }
  }

  static boolean exists(String location) {
    return TestTwin.get().storage().io().newInputFile(location).exists();
  }

  /** Every object under a location, sorted, in one listing rather than a request per file. */
  static List<String> under(String location) {
    SupportsPrefixOperations io = (SupportsPrefixOperations) TestTwin.get().storage().io();
    return StreamSupport.stream(io.listPrefix(location + "/").spliterator(), false)
        .map(FileInfo::location)
        .sorted()
        .toList();
  }
}
