package dev.puddle.core.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.access.AccessLevel;
import dev.puddle.core.api.TestClock;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.vending.CredentialCache;
import dev.puddle.core.vending.CredentialScope;
import dev.puddle.core.vending.RoleSessionName;
import dev.puddle.core.vending.SessionPolicy;
import dev.puddle.core.vending.SessionRequest;
import dev.puddle.core.vending.StsTestEndpoint;
import dev.puddle.core.vending.VendedCredentials;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.iceberg.exceptions.ServiceFailureException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The STS vendor and its cache, through the real SDK client against a loopback STS. */
class StsCredentialVendorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DEFAULT_ROLE = "arn:aws:iam::123456789012:role/puddle-vending";
  private static final String WAREHOUSE_ROLE = "arn:aws:iam::123456789012:role/sales-lake";
  private static final String TABLE = "s3://lake/warehouse/sales/orders-1a2b";

  private final TestClock clock = new TestClock(Instant.parse("2026-11-29T10:00:00Z"));
  private final StsTestEndpoint sts = StsTestEndpoint.start(clock);
  private final StsCredentialVendor vendor =
      new StsCredentialVendor(sts::client, DEFAULT_ROLE, Duration.ofMinutes(60), "eu-west-1");
  private final CredentialCache cache = new CredentialCache(vendor, clock);

  @AfterEach
  void tearDown() {
    vendor.forget();
    sts.close();
  }

  @Test
  void assumesTheRoleWithTheTablesPolicyAndTheCallersSessionName() throws Exception {
    CredentialScope scope = CredentialScope.forTable(AccessLevel.READ, TABLE, Map.of());

    VendedCredentials credentials =
        vendor.vend(
            new SessionRequest(
                DEFAULT_ROLE, RoleSessionName.of(Caller.withAllRoles("acme", "trino")), scope));

    assertThat(sts.calls()).hasSize(1);
    StsTestEndpoint.AssumeRole call = sts.calls().get(0);
    assertThat(call.roleArn()).isEqualTo(DEFAULT_ROLE);
    assertThat(call.sessionName()).isEqualTo("puddle@acme@trino");
    assertThat(call.durationSeconds()).isEqualTo(3600);
    assertThat(JSON.readTree(call.policy()))
        .isEqualTo(JSON.readTree(SessionPolicy.json(scope, "aws")));
    assertThat(credentials.accessKeyId()).isEqualTo("ASIAPUDDLETEST1");
    assertThat(credentials.secretAccessKey()).isEqualTo("secret-1");
    assertThat(credentials.sessionToken()).isEqualTo("token-1");
    assertThat(credentials.expiration()).isEqualTo(clock.instant().plus(Duration.ofHours(1)));
    assertThat(credentials.toString()).doesNotContain("secret-1").doesNotContain("token-1");
    assertThat(credentials.config())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "s3.access-key-id",
                "ASIAPUDDLETEST1",
                "s3.secret-access-key",
                "secret-1",
                "s3.session-token",
                "token-1",
                "s3.session-token-expires-at-ms",
                Long.toString(credentials.expiration().toEpochMilli())));
    assertThat(vendor.clientProperties())
        .containsExactlyEntriesOf(Map.of("client.region", "eu-west-1"));
  }

  @Test
  void aWarehouseNamesItsOwnRoleElseTheDeploymentsDefaultApplies() {
    Warehouse own =
        new Warehouse(
            1,
            "acme",
            "sales",
            "s3://lake/sales",
            Map.of(StsCredentialVendor.ROLE_PROPERTY, WAREHOUSE_ROLE));
    Warehouse plain = new Warehouse(2, "acme", "ops", "s3://lake/ops", Map.of());

    assertThat(vendor.role(own)).contains(WAREHOUSE_ROLE);
    assertThat(vendor.role(plain)).contains(DEFAULT_ROLE);
    StsCredentialVendor withoutDefault =
        new StsCredentialVendor(sts::client, null, Duration.ofHours(1), "eu-west-1");
    assertThat(withoutDefault.role(plain)).isEmpty();
  }

  @Test
  void aRoleStsRefusesIsAServiceFailureNamingTheRole() {
    sts.refuse(WAREHOUSE_ROLE);

    assertThatThrownBy(
            () ->
                vendor.vend(
                    new SessionRequest(
                        WAREHOUSE_ROLE,
                        "puddle@acme@trino",
                        CredentialScope.forTable(AccessLevel.READ, TABLE, Map.of()))))
        .isInstanceOf(ServiceFailureException.class)
        .hasMessageContaining(WAREHOUSE_ROLE)
        .hasMessageContaining("not authorized to perform: sts:AssumeRole");
  }

  @Test
  void theCacheServesOneSessionUntilFiveMinutesBeforeItExpires() {
    SessionRequest request = request("trino", AccessLevel.READ);

    VendedCredentials first = cache.vend(request);
    clock.advance(Duration.ofMinutes(54).plusSeconds(59));
    assertThat(cache.vend(request)).isSameAs(first);
    assertThat(sts.calls()).hasSize(1);

    clock.advance(Duration.ofSeconds(1));
    VendedCredentials second = cache.vend(request);

    assertThat(sts.calls()).hasSize(2);
    assertThat(second.accessKeyId()).isNotEqualTo(first.accessKeyId());
    assertThat(second.expiration()).isAfter(clock.instant().plus(Duration.ofMinutes(59)));
  }

  @Test
  void shortSessionsAreServedForHalfTheirLifetime() {
    sts.issueFor(Duration.ofMinutes(6));
    SessionRequest request = request("trino", AccessLevel.READ);

    VendedCredentials first = cache.vend(request);
    clock.advance(Duration.ofMinutes(3).minusSeconds(1));
    assertThat(cache.vend(request)).isSameAs(first);

    clock.advance(Duration.ofSeconds(1));
    assertThat(cache.vend(request)).isNotSameAs(first);
    assertThat(sts.calls()).hasSize(2);
  }

  @Test
  void credentialsAreNeverServedOnceExpired() {
    // a session that is as good as expired when it arrives is handed out once, and never kept
    sts.issueFor(Duration.ZERO);
    SessionRequest request = request("trino", AccessLevel.READ);

    cache.vend(request);
    cache.vend(request);

    assertThat(sts.calls()).hasSize(2);
  }

  @Test
  void sessionsAreKeptApartByPrincipalScopeAndAccess() {
    cache.vend(request("trino", AccessLevel.READ));
    cache.vend(request("trino", AccessLevel.READ));
    cache.vend(request("spark", AccessLevel.READ));
    cache.vend(request("trino", AccessLevel.WRITE));
    cache.vend(
        new SessionRequest(
            DEFAULT_ROLE,
            "puddle@acme@trino",
            CredentialScope.forTable(AccessLevel.READ, TABLE + "-other", Map.of())));

    assertThat(sts.calls()).hasSize(4);
    assertThat(sts.calls().get(2).policy()).contains("s3:PutObject");
    assertThat(sts.calls().get(0).policy()).doesNotContain("s3:PutObject");
  }

  @Test
  void forgettingDropsCachedSessions() {
    SessionRequest request = request("trino", AccessLevel.READ);
    VendedCredentials first = cache.vend(request);

    cache.forget();

    assertThat(cache.vend(request)).isNotEqualTo(first);
    assertThat(sts.calls()).hasSize(2);
  }

  private static SessionRequest request(String principal, AccessLevel access) {
    return new SessionRequest(
        DEFAULT_ROLE,
        RoleSessionName.of(Caller.withAllRoles("acme", principal)),
        CredentialScope.forTable(access, TABLE, Map.of()));
  }
}
