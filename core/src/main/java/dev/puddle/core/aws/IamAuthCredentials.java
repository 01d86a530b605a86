package dev.puddle.core.aws;

import dev.puddle.core.metastore.DatabaseCredentials;
import java.time.Duration;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner.AuthLocation;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * RDS IAM database authentication: the password is a token, a SigV4-presigned {@code
 * rds-db:connect} request for the user, valid 15 minutes, exactly as {@code aws rds
 * generate-db-auth-token} makes it. Signing is local (no network); the function's credentials come
 * from the provider, built on first use and dropped by {@link #forget()}. A token is reused for ten
 * minutes and made anew when the database refuses it. Connections must use TLS ({@code
 * sslmode=require} or stricter in the JDBC URL).
 */
public final class IamAuthCredentials implements DatabaseCredentials {
  static final Duration TOKEN_LIFETIME = Duration.ofMinutes(15);
  private static final Duration REUSE = Duration.ofMinutes(10);

  private final String host;
  private final int port;
  private final String user;
  private final String region;
  private final Supplier<AwsCredentialsProvider> providers;
  private AwsCredentialsProvider provider;
  private Login cached;
  private long cachedAtNanos;

  public IamAuthCredentials(
      String host,
      int port,
      String user,
      String region,
      Supplier<AwsCredentialsProvider> providers) {
    this.host = host;
    this.port = port;
    this.user = user;
    this.region = region;
    this.providers = providers;
  }

  @Override
  public synchronized Login current() {
    if (cached == null || System.nanoTime() - cachedAtNanos > REUSE.toNanos()) {
      return refreshed();
    }
    return cached;
  }

  @Override
  public synchronized Login refreshed() {
    cached = new Login(user, token());
    cachedAtNanos = System.nanoTime();
    return cached;
  }

  @Override
  public synchronized void forget() {
    cached = null;
    provider = null;
  }

  /** {@code host:port/?Action=connect&DBUser=user&X-Amz-...}: a presigned URL without scheme. */
  String token() {
    if (provider == null) {
      provider = providers.get();
    }
    AwsCredentialsIdentity identity = provider.resolveCredentials();
    SdkHttpFullRequest request =
        SdkHttpFullRequest.builder()
            .method(SdkHttpMethod.GET)
            .protocol("https")
            .host(host)
            .port(port)
            .encodedPath("/")
            .putRawQueryParameter("Action", "connect")
            .putRawQueryParameter("DBUser", user)
            .build();
    String url =
        AwsV4HttpSigner.create()
            .sign(
                r ->
                    r.identity(identity)
                        .request(request)
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "rds-db")
                        .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                        .putProperty(AwsV4HttpSigner.AUTH_LOCATION, AuthLocation.QUERY_STRING)
                        .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, TOKEN_LIFETIME))
            .request()
            .getUri()
            .toString();
    return url.substring("https://".length());
  }
}
