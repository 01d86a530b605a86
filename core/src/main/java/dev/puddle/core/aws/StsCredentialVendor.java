package dev.puddle.core.aws;

import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.vending.CredentialVendor;
import dev.puddle.core.vending.RoleSessionName;
import dev.puddle.core.vending.SessionPolicy;
import dev.puddle.core.vending.SessionRequest;
import dev.puddle.core.vending.VendedCredentials;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.exceptions.ServiceFailureException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.model.AssumeRoleResponse;
import software.amazon.awssdk.services.sts.model.Credentials;

/**
 * Vends credentials with STS {@code AssumeRole} on the warehouse's role: the role named by the
 * warehouse property {@value #ROLE_PROPERTY}, else the deployment's default role. Each session
 * carries a {@link SessionPolicy} limiting it to the table, and a {@link RoleSessionName} naming
 * realm and principal. The STS client is built on first use and dropped by {@link #forget()},
 * together with the function credentials it holds.
 */
public final class StsCredentialVendor implements CredentialVendor {
  /** The warehouse property naming the IAM role whose sessions reach the warehouse's tables. */
  public static final String ROLE_PROPERTY = "puddle.vending.role-arn";

  /** How long vended credentials last unless configured otherwise. */
  public static final Duration DEFAULT_SESSION_DURATION = Duration.ofHours(1);

  private final Supplier<StsClient> clients;
  private final String defaultRole;
  private final Duration sessionDuration;
  private final String region;
  private StsClient client;

  /**
   * @param defaultRole the role of warehouses that name none; null: such warehouses get no
   *     credentials
   * @param region the region of the warehouse buckets, handed to engines
   */
  public StsCredentialVendor(
      Supplier<StsClient> clients, String defaultRole, Duration sessionDuration, String region) {
    this.clients = clients;
    this.defaultRole = defaultRole;
    this.sessionDuration = sessionDuration;
    this.region = region;
  }

  @Override
  public Optional<String> role(Warehouse warehouse) {
    String role = warehouse.properties().get(ROLE_PROPERTY);
    return Optional.ofNullable(role == null || role.isBlank() ? defaultRole : role.strip());
  }

  @Override
  public VendedCredentials vend(SessionRequest request) {
    String policy = SessionPolicy.json(request.scope(), partition(request.role()));
    AssumeRoleResponse response;
    try {
      response =
          client()
              .assumeRole(
                  r ->
                      r.roleArn(request.role())
                          .roleSessionName(request.sessionName())
                          .policy(policy)
                          .durationSeconds((int) sessionDuration.toSeconds()));
    } catch (SdkException e) {
      // STS's message names the role and the reason (e.g. a trust policy that does not allow us)
      throw new ServiceFailureException(
          e, "Cannot vend credentials with role %s: %s", request.role(), e.getMessage());
    }
    Credentials credentials = response.credentials();
    return new VendedCredentials(
        credentials.accessKeyId(),
        credentials.secretAccessKey(),
        credentials.sessionToken(),
        credentials.expiration());
  }

  @Override
  public Map<String, String> clientProperties() {
    return Map.of(AwsClientProperties.CLIENT_REGION, region);
  }

  @Override
  public synchronized void forget() {
    if (client != null) {
      client.close();
      client = null;
    }
  }

  private synchronized StsClient client() {
    if (client == null) {
      client = clients.get();
    }
    return client;
  }

  /** The ARN partition of a role ({@code aws}, {@code aws-cn}, {@code aws-us-gov}). */
  static String partition(String roleArn) {
    String[] parts = roleArn.split(":", 3);
    if (parts.length < 3 || !parts[0].equals("arn") || parts[1].isEmpty()) {
      throw new ServiceFailureException("Invalid vending role ARN: %s", roleArn);
    }
    return parts[1];
  }
}
