package dev.puddle.core.aws;

import dev.puddle.core.purge.PurgeException;
import dev.puddle.core.storage.Storage;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;

/**
 * Lists and deletes objects in bulk: a listing page and a {@code DeleteObjects} request hold up to
 * 1000 keys each, so a purge of 10,000 files needs ten of each, not 10,000 deletes.
 *
 * <p>Throttling and server errors are retried with backoff twice over: by the SDK for a request as
 * a whole ({@code SlowDown}, 5xx, connection failures), and here for the keys a {@code
 * DeleteObjects} answer reports as not deleted. Keys that still fail are reported.
 */
public final class S3Objects implements AutoCloseable {
  /** The most keys S3 takes in one {@code DeleteObjects} request, and returns in one listing. */
  public static final int BATCH = 1000;

  private static final int SDK_ATTEMPTS = 8;
  private static final int KEY_RETRIES = 4;
  private static final Duration KEY_RETRY_BASE = Duration.ofMillis(200);
  private static final int REPORTED_ERRORS = 3;

  /** A page of a listing: its objects and, when more follow, the key to continue after. */
  public record Listing(List<Listed> objects, String continueAfter) {
    public List<String> keys() {
      return objects.stream().map(Listed::key).toList();
    }
  }

  /** An object a listing found: its key, when it was last written and its size in bytes. */
  public record Listed(String key, Instant lastModified, long size) {}

  private final S3Client s3;

  public S3Objects(S3Client s3) {
    this.s3 = s3;
  }

  /**
   * A client for the storage described by Iceberg's S3 client properties (as {@code Storage} hands
   * them to engines): the same endpoint, path-style access, keys and region, over the JDK's HTTP
   * client, uploading as Puddle's FileIO does ({@link Storage#CHUNKED_ENCODING}).
   */
  public static S3Client client(Map<String, String> clientProperties) {
    S3ClientBuilder builder =
        S3Client.builder()
            .httpClient(UrlConnectionHttpClient.create())
            .region(
                Region.of(
                    clientProperties.getOrDefault(AwsClientProperties.CLIENT_REGION, "us-east-1")))
            .forcePathStyle(
                Boolean.parseBoolean(
                    clientProperties.getOrDefault(S3FileIOProperties.PATH_STYLE_ACCESS, "false")))
            .serviceConfiguration(
                S3Configuration.builder().chunkedEncodingEnabled(Storage.CHUNKED_ENCODING).build())
            .overrideConfiguration(
                c ->
                    c.retryStrategy(
                        AwsRetryStrategy.adaptiveRetryStrategy().toBuilder()
                            .maxAttempts(SDK_ATTEMPTS)
                            .build()));
    String endpoint = clientProperties.get(S3FileIOProperties.ENDPOINT);
    if (endpoint != null) {
      builder.endpointOverride(URI.create(endpoint));
    }
    String accessKeyId = clientProperties.get(S3FileIOProperties.ACCESS_KEY_ID);
    builder.credentialsProvider(
        accessKeyId == null
            ? DefaultCredentialsProvider.builder().build()
            : StaticCredentialsProvider.create(
                AwsBasicCredentials.create(
                    accessKeyId, clientProperties.get(S3FileIOProperties.SECRET_ACCESS_KEY))));
    return builder.build();
  }

  /**
   * Up to 1000 keys starting with {@code prefix}, in key order, after {@code startAfter} if set.
   */
  public Listing list(String bucket, String prefix, String startAfter) {
    ListObjectsV2Response page =
        s3.listObjectsV2(
            b -> b.bucket(bucket).prefix(prefix).startAfter(startAfter).maxKeys(BATCH));
    List<Listed> objects =
        page.contents().stream()
            .map(object -> new Listed(object.key(), object.lastModified(), object.size()))
            .toList();
    boolean more = Boolean.TRUE.equals(page.isTruncated()) && !objects.isEmpty();
    return new Listing(objects, more ? objects.get(objects.size() - 1).key() : null);
  }

  /**
   * Writes a small object whole. It is encrypted at rest by the bucket's default encryption (the
   * stack's bucket: SSE-S3; S3 encrypts every new object with SSE-S3 at least), not by a request
   * header, which S3-compatible stores such as the twin's refuse.
   */
  public void put(String bucket, String key, byte[] content, String contentType) {
    s3.putObject(
        b -> b.bucket(bucket).key(key).contentType(contentType), RequestBody.fromBytes(content));
  }

  /** The content of a small object, or empty if there is no object of that key. */
  public Optional<byte[]> get(String bucket, String key) {
    try {
      return Optional.of(s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray());
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    }
  }

  /**
   * Deletes up to 1000 keys of a bucket with one {@code DeleteObjects} request, retrying the keys
   * it reports as failed with backoff, and returns how many were deleted. Keys that do not exist
   * count as deleted, as S3 reports them, so a repeated purge completes. Throws {@link
   * PurgeException} naming the keys that could not be deleted.
   */
  public int delete(String bucket, List<String> keys) {
    if (keys.size() > BATCH) {
      throw new IllegalArgumentException("At most " + BATCH + " keys per request: " + keys.size());
    }
    List<String> pending = keys;
    List<S3Error> errors = List.of();
    for (int retry = 0; !pending.isEmpty(); retry++) {
      if (retry > 0) {
        if (retry > KEY_RETRIES) {
          throw new PurgeException(describe(bucket, errors, keys.size()));
        }
        backoff(retry);
      }
      List<ObjectIdentifier> objects =
          pending.stream().map(key -> ObjectIdentifier.builder().key(key).build()).toList();
      DeleteObjectsResponse response =
          s3.deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(objects).quiet(true)));
      errors = response.errors();
      pending = errors.stream().map(S3Error::key).toList();
    }
    return keys.size();
  }

  private static String describe(String bucket, List<S3Error> errors, int requested) {
    List<String> examples = new ArrayList<>();
    for (S3Error error : errors.subList(0, Math.min(REPORTED_ERRORS, errors.size()))) {
      examples.add(
          "s3://" + bucket + "/" + error.key() + ": " + error.code() + " " + error.message());
    }
    return String.format(
        "Could not delete %d of %d objects after %d retries, e.g. %s",
        errors.size(), requested, KEY_RETRIES, String.join("; ", examples));
  }

  /** Exponential backoff with full jitter, as AWS recommends against throttling. */
  private static void backoff(int retry) {
    long ceiling = KEY_RETRY_BASE.toMillis() << (retry - 1);
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(ceiling / 2, ceiling + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PurgeException("Interrupted while retrying deletes");
    }
  }

  @Override
  public void close() {
    s3.close();
  }
}
