package dev.puddle.core.signing;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

/**
 * Signs S3 requests with SigV4 (the AWS SDK's {@link AwsV4HttpSigner}) under this process's own
 * credentials: on Lambda the signer function's role, in the twin its S3 server's identity. The
 * payload is left unsigned ({@code UNSIGNED-PAYLOAD}), as Iceberg's signer client expects, but for
 * DeleteObjects, whose body names the keys checked before signing: its hash is signed, so S3
 * refuses any other body sent with the signature.
 */
public final class RequestSigner {
  /**
   * Headers left out of the signature: they differ between the attempts and ranges of a request,
   * and Iceberg's client reuses a signature of a GET or HEAD for the same URI for a while; and
   * those the signature sets itself. The host is always the URI's: a {@code Host} header of the
   * caller's would name another bucket than the one checked.
   */
  private static final Set<String> UNSIGNED_HEADERS =
      Set.of(
          "host",
          "range",
          "x-amz-date",
          "authorization",
          "amz-sdk-invocation-id",
          "amz-sdk-request",
          "amz-sdk-retry",
          "user-agent",
          "x-amz-content-sha256");

  /** Headers the signature itself sets: a caller's own are dropped. */
  private static final Set<String> SIGNATURE_HEADERS =
      Set.of("host", "authorization", "x-amz-date", "x-amz-content-sha256");

  /**
   * The SDK's signer, made on the first signature (or by {@link #prime}), not with the function's
   * wiring: every catalog function has a {@code RequestSigner}, to tell engines that it signs, and
   * all but the signer function never sign; those need not load the SDK's signing at init.
   */
  private static final class SigV4 {
    static final AwsV4HttpSigner SIGNER = AwsV4HttpSigner.create();
  }

  private final Supplier<AwsCredentialsProvider> credentialsSource;
  private final S3Addressing addressing;
  private final Clock clock;
  private volatile AwsCredentialsProvider credentials;

  /**
   * A signer under the credentials of the provider {@code credentials} makes, asked for it on the
   * first signature, for the S3 endpoints {@code addressing} knows.
   *
   * @param clock the signing time's clock
   */
  public RequestSigner(
      Supplier<AwsCredentialsProvider> credentials, S3Addressing addressing, Clock clock) {
    this.credentialsSource = credentials;
    this.addressing = addressing;
    this.clock = clock;
  }

  /**
   * Makes the SDK's signer and the credentials provider now, resolving no credentials: SnapStart's
   * priming, so that the snapshot holds them, as a signature after a restore would otherwise make
   * them.
   */
  public void prime() {
    credentials();
    Objects.requireNonNull(SigV4.SIGNER);
  }

  private AwsCredentialsProvider credentials() {
    AwsCredentialsProvider provider = credentials;
    if (provider == null) {
      synchronized (this) {
        provider = credentials;
        if (provider == null) {
          provider = credentialsSource.get();
          credentials = provider;
        }
      }
    }
    return provider;
  }

  /** Where the buckets of request URIs are. */
  public S3Addressing addressing() {
    return addressing;
  }

  /**
   * The headers that sign a request: the request's own signed headers, and those the signature adds
   * ({@code Authorization}, {@code x-amz-date}, {@code x-amz-content-sha256}).
   *
   * @param body the body whose hash is signed, or null for an unsigned payload
   */
  public Map<String, List<String>> sign(
      URI uri, String method, String region, Map<String, List<String>> headers, String body) {
    SdkHttpRequest.Builder request =
        SdkHttpRequest.builder().uri(uri).method(SdkHttpMethod.fromValue(method));
    Map<String, List<String>> unsigned = new HashMap<>();
    headers.forEach(
        (name, values) -> {
          if (UNSIGNED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
            unsigned.put(name, values);
          } else {
            request.putHeader(name, values);
          }
        });
    boolean signsPayload = body != null;
    SignedRequest signed =
        SigV4.SIGNER.sign(
            sign -> {
              sign.identity(credentials().resolveCredentials())
                  .request(request.build())
                  .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                  .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                  .putProperty(AwsV4HttpSigner.DOUBLE_URL_ENCODE, false)
                  .putProperty(AwsV4HttpSigner.NORMALIZE_PATH, false)
                  .putProperty(AwsV4FamilyHttpSigner.PAYLOAD_SIGNING_ENABLED, signsPayload)
                  .putProperty(HttpSigner.SIGNING_CLOCK, clock);
              if (signsPayload) {
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                sign.payload(ContentStreamProvider.fromByteArray(bytes));
              }
            });
    Map<String, List<String>> result = new HashMap<>(signed.request().headers());
    unsigned.forEach(
        (name, values) -> {
          if (!SIGNATURE_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
            result.putIfAbsent(name, values);
          }
        });
    return result;
  }
}
