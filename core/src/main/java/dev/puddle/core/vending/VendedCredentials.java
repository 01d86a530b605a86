package dev.puddle.core.vending;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.aws.s3.S3FileIOProperties;

/** Temporary S3 credentials: keys, session token and when they expire. */
public record VendedCredentials(
    String accessKeyId, String secretAccessKey, String sessionToken, Instant expiration) {
  public VendedCredentials {
    Objects.requireNonNull(accessKeyId, "accessKeyId");
    Objects.requireNonNull(secretAccessKey, "secretAccessKey");
    Objects.requireNonNull(sessionToken, "sessionToken");
    Objects.requireNonNull(expiration, "expiration");
  }

  /** The client properties S3FileIO reads them from. */
  public Map<String, String> config() {
    Map<String, String> config = new LinkedHashMap<>();
    config.put(S3FileIOProperties.ACCESS_KEY_ID, accessKeyId);
    config.put(S3FileIOProperties.SECRET_ACCESS_KEY, secretAccessKey);
    config.put(S3FileIOProperties.SESSION_TOKEN, sessionToken);
    config.put(
        S3FileIOProperties.SESSION_TOKEN_EXPIRES_AT_MS, Long.toString(expiration.toEpochMilli()));
    return config;
  }

  /** Never the secrets: records print their fields, and this one may reach a log. */
  @Override
  public String toString() {
    return "VendedCredentials[accessKeyId=" + accessKeyId + ", expiration=" + expiration + "]";
  }
}
