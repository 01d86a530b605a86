package dev.puddle.core.signing;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the bucket of an S3 request URI is: in the path of an S3-compatible server's endpoint (the
 * twin's, path-style), or, on AWS, in the host ({@code bucket.s3.region.amazonaws.com}) or the path
 * of a regional or global S3 endpoint. A URI of any other host names no bucket Puddle signs for.
 */
public final class S3Addressing {
  private static final Pattern AWS_HOST =
      Pattern.compile(
          "(?:(?<bucket>[a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\\.)?"
              + "s3(?:[.-]dualstack)?(?:[.-][a-z0-9-]+)?\\.amazonaws\\.com(?:\\.cn)?");

  /** A bucket and the object key (empty for a bucket-level request), decoded. */
  public record Address(String bucket, String key) {}

  private final URI endpoint;

  private S3Addressing(URI endpoint) {
    this.endpoint = endpoint;
  }

  /** Amazon S3's endpoints, virtual-hosted or path-style. */
  public static S3Addressing aws() {
    return new S3Addressing(null);
  }

  /** An S3-compatible server at {@code endpoint}, addressed path-style. */
  public static S3Addressing pathStyle(String endpoint) {
    return new S3Addressing(URI.create(endpoint));
  }

  /** The bucket and key a request URI addresses, or empty if its host is not S3's. */
  public Optional<Address> address(URI uri) {
    String host = uri.getHost();
    String path = uri.getPath();
    if (host == null || path == null || !path.startsWith("/")) {
      return Optional.empty();
    }
    host = host.toLowerCase(Locale.ROOT);
    if (endpoint != null) {
      boolean same =
          host.equalsIgnoreCase(endpoint.getHost())
              && port(uri) == port(endpoint)
              && uri.getScheme().equalsIgnoreCase(endpoint.getScheme());
      return same ? inPath(path) : Optional.empty();
    }
    if (!"https".equalsIgnoreCase(uri.getScheme())) {
      return Optional.empty();
    }
    Matcher matcher = AWS_HOST.matcher(host);
    if (!matcher.matches()) {
      return Optional.empty();
    }
    String bucket = matcher.group("bucket");
    return bucket == null ? inPath(path) : Optional.of(new Address(bucket, path.substring(1)));
  }

  private static Optional<Address> inPath(String path) {
    String rest = path.substring(1);
    int slash = rest.indexOf('/');
    String bucket = slash < 0 ? rest : rest.substring(0, slash);
    if (bucket.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Address(bucket, slash < 0 ? "" : rest.substring(slash + 1)));
  }

  private static int port(URI uri) {
    if (uri.getPort() >= 0) {
      return uri.getPort();
    }
    return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }
}
