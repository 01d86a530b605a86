package dev.puddle.core.vending;

import dev.puddle.core.aws.StsCredentialVendor;
import dev.puddle.core.metastore.Warehouse;
import java.util.Map;
import java.util.Optional;

/**
 * Mints temporary storage credentials limited to a {@link CredentialScope}: STS {@code AssumeRole}
 * on AWS ({@link StsCredentialVendor}), the local twin's own S3 server elsewhere.
 */
public interface CredentialVendor {
  /** The role credentials for {@code warehouse} are vended from; empty: none for it. */
  Optional<String> role(Warehouse warehouse);

  /** New credentials for the request. */
  VendedCredentials vend(SessionRequest request);

  /**
   * Client properties engines need besides the credentials to reach the storage, such as an
   * endpoint and region. Never secrets.
   */
  Map<String, String> clientProperties();

  /** Drops clients and whatever credentials they hold, e.g. after a SnapStart restore. */
  default void forget() {}
}
