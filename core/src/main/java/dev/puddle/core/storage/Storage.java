package dev.puddle.core.storage;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.HttpClientProperties;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.DelegateFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import software.amazon.awssdk.core.sync.RequestBody;

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
 *
 * <p>The S3FileIO is set up on the first file it reads, writes, lists or deletes, or when {@link
 * #prime} asks for it, not when the storage is made: its setup (the S3 and AWS client properties,
 * the client factory) loads a few hundred classes, 300 to 400 ms of a function's cold start, which
 * a request that touches no file (a {@code loadTable} reads the metadata JSON from the metastore)
 * would otherwise pay first.
 */
public final class Storage implements AutoCloseable {
  /** The manifest bytes an execution environment keeps: a sixteenth of a 1 GB function. */
  static final long MANIFEST_CACHE_BYTES = 64L * 1024 * 1024;

  static final Duration MANIFEST_CACHE_IDLE = Duration.ofMinutes(15);

  /**
   * Whether Puddle's uploads go aws-chunked, their checksum in a trailer: not (the S3FileIO's and
   * {@code S3Objects}' clients both). The JDK's client writes such a body to the socket in pieces
   * of a few bytes, each its own segment (or TLS record), and an S3-compatible server that answers
   * before the trailer is read resets the connection: about 3% of the local twin's PUTs failed so
   * and were retried after the SDK's backoff, 40 to 100 ms each. Puddle's uploads are metadata
   * files in memory and staged files, whose checksum the SDK computes before sending, in a header,
   * so nothing is lost.
   */
  public static final boolean CHUNKED_ENCODING = false;

  private final Map<String, String> clientProperties;
  private final LazyS3FileIO io;

  private Storage(Map<String, String> clientProperties) {
    this.clientProperties = Map.copyOf(clientProperties);
    Map<String, String> ioProperties = new HashMap<>(clientProperties);
    // the JDK's HTTP client: no Apache or Netty client in the deployment artifact
    ioProperties.put(
        HttpClientProperties.CLIENT_TYPE, HttpClientProperties.CLIENT_TYPE_URLCONNECTION);
    ioProperties.put(S3FileIOProperties.CHUNKED_ENCODING_ENABLED, String.valueOf(CHUNKED_ENCODING));
    ioProperties.put(CatalogProperties.IO_MANIFEST_CACHE_ENABLED, "true");
    ioProperties.put(
        CatalogProperties.IO_MANIFEST_CACHE_MAX_TOTAL_BYTES, String.valueOf(MANIFEST_CACHE_BYTES));
    ioProperties.put(
        CatalogProperties.IO_MANIFEST_CACHE_EXPIRATION_INTERVAL_MS,
        String.valueOf(MANIFEST_CACHE_IDLE.toMillis()));
    this.io = new LazyS3FileIO(ioProperties);
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

  /** The storage's FileIO: an S3FileIO, set up when it is first used. */
  public FileIO io() {
    return io;
  }

  /**
   * Sets the S3FileIO up now: SnapStart's priming, so that the snapshot holds it, as the first
   * request after a restore would otherwise set it up. It makes no network call.
   */
  public void prime() {
    io.delegate();
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

  /**
   * Writes {@code bytes} as the whole object at {@code location}, replacing any. On this storage's
   * FileIO that is one S3 {@code PutObject} straight from memory: S3FileIO's output stream would
   * first stage the bytes in a local temporary file, read it back for the upload and delete it, and
   * register every such file for deletion at exit (a path the JVM keeps until it ends), which for a
   * commit's metadata file, already whole in memory, is work on the commit's critical path for
   * nothing. The request is the one that stream sends for a file under its multipart threshold:
   * this storage sets none of the FileIO's encryption, ACL, tag or checksum properties. Any other
   * FileIO writes through its output file.
   */
  public static void write(FileIO io, String location, byte[] bytes) {
    Optional<S3Location> object = S3Location.parse(location);
    if (io instanceof LazyS3FileIO s3 && object.isPresent()) {
      s3.delegate()
          .client(location)
          .putObject(
              b -> b.bucket(object.get().bucket()).key(object.get().key()),
              RequestBody.fromBytes(bytes));
      return;
    }
    try (OutputStream out = io.newOutputFile(location).createOrOverwrite()) {
      out.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    io.close();
  }

  /**
   * An S3FileIO made and initialized on first use. It is a {@link DelegateFileIO}, as S3FileIO is,
   * so Iceberg's bulk and prefix deletes still find it; its {@link #properties()} are the ones the
   * S3FileIO is initialized with, read (by the manifest cache) without setting it up.
   */
  private static final class LazyS3FileIO implements DelegateFileIO {
    private final Map<String, String> properties;
    private transient volatile S3FileIO delegate;

    LazyS3FileIO(Map<String, String> properties) {
      this.properties = Map.copyOf(properties);
    }

    S3FileIO delegate() {
      S3FileIO io = delegate;
      if (io == null) {
        synchronized (this) {
          io = delegate;
          if (io == null) {
            io = new S3FileIO();
            io.initialize(properties);
            delegate = io;
          }
        }
      }
      return io;
    }

    @Override
    public InputFile newInputFile(String path) {
      return delegate().newInputFile(path);
    }

    @Override
    public InputFile newInputFile(String path, long length) {
      return delegate().newInputFile(path, length);
    }

    @Override
    public OutputFile newOutputFile(String path) {
      return delegate().newOutputFile(path);
    }

    @Override
    public void deleteFile(String path) {
      delegate().deleteFile(path);
    }

    @Override
    public void deleteFiles(Iterable<String> paths) throws BulkDeletionFailureException {
      delegate().deleteFiles(paths);
    }

    @Override
    public Iterable<FileInfo> listPrefix(String prefix) {
      return delegate().listPrefix(prefix);
    }

    @Override
    public void deletePrefix(String prefix) {
      delegate().deletePrefix(prefix);
    }

    @Override
    public Map<String, String> properties() {
      return properties;
    }

    @Override
    public void close() {
      S3FileIO io = delegate;
      if (io != null) {
        io.close();
      }
    }
  }
}
