package dev.puddle.local;

import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.vending.CredentialVendor;
import dev.puddle.core.vending.SessionRequest;
import dev.puddle.core.vending.VendedCredentials;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.s3.S3FileIOProperties;

/**
 * The twin's stand-in for STS: credentials from its own S3 server, limited to the table's locations
 * and expiring like a role session, with the endpoint and path-style access engines need to reach
 * that server. Every warehouse of the twin vends.
 */
public final class LocalCredentialVendor implements CredentialVendor {
  /** The "role" the twin's credentials come from, for cache keys and messages. */
  public static final String ROLE = "local-s3";

  private final LocalS3 s3;
  private final Duration lifetime;

  public LocalCredentialVendor(LocalS3 s3, Duration lifetime) {
    this.s3 = s3;
    this.lifetime = lifetime;
  }

  @Override
  public Optional<String> role(Warehouse warehouse) {
    return Optional.of(ROLE);
  }

  @Override
  public VendedCredentials vend(SessionRequest request) {
    return s3.openSession(request.scope(), lifetime);
  }

  @Override
  public Map<String, String> clientProperties() {
    return Map.of(
        S3FileIOProperties.ENDPOINT,
        s3.endpoint(),
        S3FileIOProperties.PATH_STYLE_ACCESS,
        "true",
        AwsClientProperties.CLIENT_REGION,
        LocalS3.REGION);
  }
}
