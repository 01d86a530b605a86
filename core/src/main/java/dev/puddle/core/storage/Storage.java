package dev.puddle.core.storage;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.HttpClientProperties;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.io.FileIO;

/**
 * The warehouse's object storage: the {@link FileIO} Puddle writes metadata files with, and the
 * client properties engines need to reach the same storage.
 *
 * <p>On AWS, Puddle and engines use their own credentials and the regional endpoint; against an
 * S3-compatible server (the local twin) both get its endpoint, path-style access and keys.
 *
 * <p>The FileIO keeps iceberg-core's manifest cache ({@link
 * CatalogProperties#IO_MANIFEST_CACHE_ENABLED}): the bytes of the manifests a scan reads, keyed by
 * path, up to {@value #MANIFEST_CACHE_BYTES} bytes, each dropped {@link #MANIFEST_CACHE_IDLE} after
 * its last read. Manifests are never rewritten in place, so a cached one is never stale, and the
 * cache is safe to lose; it spares the S3 reads of a table's manifests when its scans are planned
 * again on the server (and by the planning worker).
 */
public final class Storage implements AutoCloseable {
  /** The manifest bytes an execution environment keeps: a sixteenth of a 1 GB function. */
  static final long MANIFEST_CACHE_BYTES = 64L * 1024 * 1024;

  static final Duration MANIFEST_CACHE_IDLE = Duration.ofMinutes(15);

  private final Map<String, String> clientProperties;
  private final S3FileIO io;

  private Storage(Map<String, String> clientProperties) {
    this.clientProperties = Map.copyOf(clientProperties);
    Map<String, String> ioProperties = new HashMap<>(clientProperties);
    // the JDK's HTTP client: no Apache or Netty client in the deployment artifact
    ioProperties.put(
        HttpClientProperties.CLIENT_TYPE, HttpClientProperties.CLIENT_TYPE_URLCONNECTION);
    ioProperties.put(CatalogProperties.IO_MANIFEST_CACHE_ENABLED, "true");
    ioProperties.put(
        CatalogProperties.IO_MANIFEST_CACHE_MAX_TOTAL_BYTES, String.valueOf(MANIFEST_CACHE_BYTES));
    ioProperties.put(
        CatalogProperties.IO_MANIFEST_CACHE_EXPIRATION_INTERVAL_MS,
        String.valueOf(MANIFEST_CACHE_IDLE.toMillis()));
    this.io = new S3FileIO();
    io.initialize(ioProperties);
  }

  /** Storage on AWS S3 in a region, with the function's own credentials. */
  public static Storage aws(String region) {
    return new Storage(Map.of(AwsClientProperties.CLIENT_REGION, region));
  }

  /** Storage on an S3-compatible server with static keys, e.g. the local twin's. */
  public static Storage s3Compatible(
      String endpoint, String region, String accessKeyId, String secretAccessKey) {
    return new Storage(
        Map.of(
            S3FileIOProperties.ENDPOINT, endpoint,
            S3FileIOProperties.PATH_STYLE_ACCESS, "true",
            S3FileIOProperties.ACCESS_KEY_ID, accessKeyId,
            S3FileIOProperties.SECRET_ACCESS_KEY, secretAccessKey,
            AwsClientProperties.CLIENT_REGION, region));
  }

  public FileIO io() {
    return io;
  }

  /** What an engine needs to read and write this storage, handed out by {@code /v1/config}. */
  public Map<String, String> clientProperties() {
    return clientProperties;
  }

  /**
   * Whether engines get this storage's own keys (an S3-compatible server's): then they need no
   * vended credentials to reach it.
   */
  public boolean handsOutKeys() {
    return clientProperties.containsKey(S3FileIOProperties.ACCESS_KEY_ID);
  }

  /**
   * What {@code /v1/config} hands engines as defaults: the client properties (the storage's keys
   * only if {@code withKeys}), and S3FileIO so that a Java client without Hadoop on its classpath
   * can read and write tables.
   */
  public Map<String, String> configDefaults(boolean withKeys) {
    Map<String, String> defaults = new HashMap<>(clientProperties);
    if (!withKeys) {
      defaults.remove(S3FileIOProperties.ACCESS_KEY_ID);
      defaults.remove(S3FileIOProperties.SECRET_ACCESS_KEY);
    }
    defaults.put(CatalogProperties.FILE_IO_IMPL, S3FileIO.class.getName());
    return defaults;
  }

  @Override
  public void close() {
    io.close();
  }
}
