package dev.puddle.core.vending;

import dev.puddle.core.access.AccessLevel;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.metastore.Warehouse;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.rest.credentials.Credential;
import org.apache.iceberg.rest.credentials.ImmutableCredential;

/**
 * Credential vending: whether a warehouse's tables get vended credentials, and the credentials
 * themselves, as a table response carries them, at the level {@link
 * dev.puddle.core.access.AccessPolicy#delegation} gave the caller.
 */
public final class CredentialVending {
  private static final CredentialVending DISABLED = new CredentialVending(null);

  private final CredentialVendor vendor;

  /** Vending from {@code vendor} (wrap it in a {@link CredentialCache}). */
  public CredentialVending(CredentialVendor vendor) {
    this.vendor = vendor;
  }

  /** No credential vending: requests for it are answered without credentials. */
  public static CredentialVending disabled() {
    return DISABLED;
  }

  /** Whether the tables of {@code warehouse} get vended credentials. */
  public boolean enabled(Warehouse warehouse) {
    return vendor != null && vendor.role(warehouse).isPresent();
  }

  /**
   * Credentials for a table of {@code warehouse} (which must be {@link #enabled}) at {@code
   * location}, with the client properties that go with them and where to refresh them.
   *
   * @param refreshEndpoint the table's credentials endpoint, relative to the catalog URI
   */
  public Credential credentials(
      Caller caller,
      Warehouse warehouse,
      AccessLevel level,
      String location,
      Map<String, String> tableProperties,
      String refreshEndpoint) {
    CredentialScope scope = CredentialScope.forTable(level, location, tableProperties);
    String role = vendor.role(warehouse).orElseThrow();
    VendedCredentials credentials =
        vendor.vend(new SessionRequest(role, RoleSessionName.of(caller), scope));
    Map<String, String> config = new LinkedHashMap<>(vendor.clientProperties());
    config.putAll(credentials.config());
    config.put(AwsClientProperties.REFRESH_CREDENTIALS_ENDPOINT, refreshEndpoint);
    return ImmutableCredential.builder().prefix(scope.location()).config(config).build();
  }

  /** Drops cached credentials and clients, e.g. after a SnapStart restore. */
  public void forget() {
    if (vendor != null) {
      vendor.forget();
    }
  }
}
