package dev.puddle.local;

import dev.puddle.core.signing.RequestSigner;
import dev.puddle.core.signing.S3Addressing;
import dev.puddle.core.vending.CredentialScope;
import dev.puddle.core.vending.VendedCredentials;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * An S3-compatible server on loopback (S3Proxy) that keeps objects in a directory. It accepts its
 * own keys, and temporary keys it hands out for vended credentials (see {@link LocalS3Sessions}).
 */
public final class LocalS3 implements AutoCloseable {
  public static final String ACCESS_KEY_ID = "puddle";
  public static final String SECRET_ACCESS_KEY = "puddle-local-secret";
  public static final String REGION = "us-east-1";

  private final S3Proxy proxy;
  private final BlobStore store;
  private final String host;
  private final LocalS3Sessions sessions;

  private LocalS3(S3Proxy proxy, BlobStore store, String host, LocalS3Sessions sessions) {
    this.proxy = proxy;
    this.store = store;
    this.host = host;
    this.sessions = sessions;
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
              // S3Proxy answers 501 to x-amz- headers it does not know, and it knows no session
              // tokens: vended credentials send x-amz-security-token (still signed and checked)
              .ignoreUnknownHeaders(true)
              .build();
      LocalS3Sessions sessions =
          new LocalS3Sessions(ACCESS_KEY_ID, SECRET_ACCESS_KEY, store, Clock.systemUTC());
      proxy.setBlobStoreLocator(sessions);
      proxy.start(); // returns once the server listens
      if (!"STARTED".equals(proxy.getState())) {
        throw new IllegalStateException("S3 server did not start: " + proxy.getState());
      }
      return new LocalS3(proxy, store, bind, sessions);
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

  /**
   * Temporary keys (with a session token, which the server ignores) that reach only the scope's
   * locations, until they expire.
   */
  public VendedCredentials openSession(CredentialScope scope, Duration lifetime) {
    return sessions.open(scope, lifetime);
  }

  /**
   * Remote signing under the server's own identity, as the signer function signs under its role:
   * the only keys the server accepts besides vended sessions.
   */
  public RequestSigner requestSigner() {
    return new RequestSigner(
        () ->
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(ACCESS_KEY_ID, SECRET_ACCESS_KEY)),
        S3Addressing.pathStyle(endpoint()),
        Clock.systemUTC());
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
