package dev.puddle.local;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;

/** An S3-compatible server on loopback (S3Proxy) that keeps objects in a directory. */
public final class LocalS3 implements AutoCloseable {
  public static final String ACCESS_KEY_ID = "puddle";
  public static final String SECRET_ACCESS_KEY = "puddle-local-secret";
  public static final String REGION = "us-east-1";

  private final S3Proxy proxy;
  private final BlobStore store;
  private final String host;

  private LocalS3(S3Proxy proxy, BlobStore store, String host) {
    this.proxy = proxy;
    this.store = store;
    this.host = host;
  }

  public static LocalS3 start(Path directory, String bind, int port) {
    try {
      Files.createDirectories(directory);
      BlobStore store = new FilesystemNio2BlobStore(directory.toAbsolutePath().toString());
      S3Proxy proxy =
          S3Proxy.builder()
              .blobStore(store)
              .endpoint(URI.create("http://" + bind + ":" + port))
              .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY_ID, SECRET_ACCESS_KEY)
              .build();
      proxy.start(); // returns once the server listens
      if (!"STARTED".equals(proxy.getState())) {
        throw new IllegalStateException("S3 server did not start: " + proxy.getState());
      }
      return new LocalS3(proxy, store, bind);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("Cannot start the S3 server", e);
    }
  }

  /** Creates a bucket unless it exists. */
  public void ensureBucket(String bucket) {
    if (!store.containerExists(bucket)) {
      store.createContainer(bucket);
    }
  }

  public String endpoint() {
    return "http://" + host + ":" + proxy.getPort();
  }

  @Override
  public void close() {
    try {
      proxy.stop();
    } catch (Exception e) {
      throw new IllegalStateException("Cannot stop the S3 server", e);
    }
  }
}
