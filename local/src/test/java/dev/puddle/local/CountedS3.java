package dev.puddle.local;

import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.storage.Storage;
import dev.puddle.local.OperationCostTest.S3Counter;
import dev.puddle.local.OperationCostTest.S3Kind;
import dev.puddle.local.OperationCostTest.S3Request;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The twin's S3 behind an {@link S3Counter}, for benchmarks that count S3 requests by kind: a
 * storage and an S3 client whose requests are counted, and a direct client whose are not.
 */
final class CountedS3 implements AutoCloseable {
  private final S3Counter counter;
  private final Storage storage;
  private final S3Client client;
  private final S3Client direct;

  private CountedS3(S3Counter counter, Storage storage, S3Client client, S3Client direct) {
    this.counter = counter;
    this.storage = storage;
    this.client = client;
    this.direct = direct;
  }

  static CountedS3 start(LocalTwin twin) throws IOException {
    S3Counter counter = S3Counter.start(URI.create(twin.s3Endpoint()));
    Storage storage = counter.storage();
    return new CountedS3(
        counter,
        storage,
        S3Objects.client(storage.clientProperties()),
        S3Objects.client(twin.storage().clientProperties()));
  }

  /** A storage whose S3 requests are counted. */
  Storage storage() {
    return storage;
  }

  /** An S3 client whose requests are counted. */
  S3Client client() {
    return client;
  }

  /** An S3 client straight to the twin's S3, for setting up what is not measured. */
  S3Client direct() {
    return direct;
  }

  /** Forgets the requests counted so far. */
  void clear() {
    List<S3Request> requests = counter.requests();
    synchronized (requests) {
      requests.clear();
      counter.requestNanos().clear();
    }
  }

  /**
   * Holds each object GET that long before the twin's S3 sees it, as S3's own latency would, for
   * tests of what is read in parallel.
   */
  void getLatency(Duration latency) {
    counter.getLatency(latency);
  }

  /** The requests counted since the last {@link #clear}, each with when it arrived. */
  List<Timed> timedRequests() {
    List<S3Request> requests = counter.requests();
    synchronized (requests) {
      List<Long> nanos = counter.requestNanos();
      return IntStream.range(0, requests.size())
          .mapToObj(i -> new Timed(requests.get(i), nanos.get(i)))
          .toList();
    }
  }

  /** A request and when it arrived ({@link System#nanoTime}). */
  record Timed(S3Request request, long nanos) {}

  /** The requests counted since the last {@link #clear}, in order. */
  List<S3Request> requests() {
    List<S3Request> requests = counter.requests();
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** The uploads so far whose body was sent aws-chunked rather than whole. */
  int awsChunkedUploads() {
    return counter.awsChunkedUploads();
  }

  /** The requests counted since the last {@link #clear}, by kind. */
  Map<S3Kind, Integer> byKind() {
    List<S3Request> requests = counter.requests();
    Map<S3Kind, Integer> counts = new EnumMap<>(S3Kind.class);
    synchronized (requests) {
      requests.forEach(request -> counts.merge(request.kind(), 1, Integer::sum));
    }
    return counts;
  }

  @Override
  public void close() {
    client.close();
    direct.close();
    storage.close();
    counter.close();
  }
}
