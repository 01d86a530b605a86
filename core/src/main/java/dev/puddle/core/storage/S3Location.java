package dev.puddle.core.storage;

import java.util.Optional;

/**
 * A bucket and key, from an {@code s3://}, {@code s3a://} or {@code s3n://} URI: engines write all
 * three for the same objects.
 */
public record S3Location(String bucket, String key) {

  /** The location of a URI, or empty when it is not an S3 URI. */
  public static Optional<S3Location> parse(String uri) {
    int schemeEnd = uri.indexOf("://");
    if (schemeEnd < 0) {
      return Optional.empty();
    }
    String scheme = uri.substring(0, schemeEnd);
    if (!scheme.equals("s3") && !scheme.equals("s3a") && !scheme.equals("s3n")) {
      return Optional.empty();
    }
    String rest = uri.substring(schemeEnd + 3);
    int slash = rest.indexOf('/');
    if (slash <= 0) {
      return slash == 0 ? Optional.empty() : Optional.of(new S3Location(rest, ""));
    }
    return Optional.of(new S3Location(rest.substring(0, slash), rest.substring(slash + 1)));
  }

  /** The location as an {@code s3://} URI. */
  public String uri() {
    return "s3://" + bucket + "/" + key;
  }

  /** Whether this object lies below {@code base}, a folder-like location. */
  public boolean isBelow(S3Location base) {
    String prefix = base.key.endsWith("/") ? base.key : base.key + "/";
    return bucket.equals(base.bucket) && (base.key.isEmpty() || key.startsWith(prefix));
  }
}
