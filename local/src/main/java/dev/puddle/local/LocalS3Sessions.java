package dev.puddle.local;

import dev.puddle.core.storage.S3Location;
import dev.puddle.core.vending.CredentialScope;
import dev.puddle.core.vending.VendedCredentials;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.gaul.s3proxy.AccessGrant;
import org.gaul.s3proxy.BlobStoreLocator;
import org.gaul.s3proxy.blobstore.BlobStore;

/**
 * Who may use the twin's S3 server, and where: its own identity everywhere, and temporary sessions
 * minted for vended credentials, each until it expires and only at its scope's locations (objects
 * below them, and listing their buckets), much as an STS session policy limits a role on AWS.
 * Unlike AWS, it cannot tell reads from writes, nor limit a listing to a prefix: S3Proxy asks only
 * who calls, for which bucket and which object.
 */
final class LocalS3Sessions implements BlobStoreLocator {
  private record Session(String secret, Instant expiration, List<S3Location> locations) {}

  private static final SecureRandom RANDOM = new SecureRandom();

  private final String identity;
  private final String credential;
  private final BlobStore store;
  private final Clock clock;
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  LocalS3Sessions(String identity, String credential, BlobStore store, Clock clock) {
    this.identity = identity;
    this.credential = credential;
    this.store = store;
    this.clock = clock;
  }

  /** New credentials for {@code scope}, valid for {@code lifetime}. */
  VendedCredentials open(CredentialScope scope, Duration lifetime) {
    List<S3Location> locations =
        scope.locations().stream()
            .map(
                location ->
                    S3Location.parse(location)
                        .orElseThrow(
                            () -> new IllegalArgumentException("Not an S3 location: " + location)))
            .toList();
    String accessKeyId = "PUDDLELOCAL" + random(10).toUpperCase();
    String secret = random(20);
    Instant expiration = clock.instant().plus(lifetime);
    sessions.values().removeIf(session -> !clock.instant().isBefore(session.expiration()));
    sessions.put(accessKeyId, new Session(secret, expiration, locations));
    return new VendedCredentials(accessKeyId, secret, random(32), expiration);
  }

  @Override
  public AccessGrant locateBlobStore(String requestIdentity, String container, String blob) {
    if (identity.equals(requestIdentity)) {
      return new AccessGrant(credential, store);
    }
    Session session = requestIdentity == null ? null : sessions.get(requestIdentity);
    if (session == null
        || !clock.instant().isBefore(session.expiration())
        || container == null
        || session.locations().stream().noneMatch(location -> reaches(location, container, blob))) {
      return null;
    }
    return new AccessGrant(session.secret(), store);
  }

  /** Objects below the location, and its bucket itself (listing with a prefix, its region). */
  private static boolean reaches(S3Location location, String bucket, String key) {
    if (!location.bucket().equals(bucket)) {
      return false;
    }
    return key == null || key.isEmpty() || new S3Location(bucket, key).isBelow(location);
  }

  private static String random(int bytes) {
    byte[] value = new byte[bytes];
    RANDOM.nextBytes(value);
    return HexFormat.of().formatHex(value);
  }
}
