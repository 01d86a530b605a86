package dev.puddle.core.vending;

import dev.puddle.core.metastore.Warehouse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps vended credentials per execution environment, so that loads of the same table by the same
 * principal reuse one session instead of calling STS each time. An entry is served for most of its
 * credentials' lifetime: until five minutes before they expire, or for half their lifetime when
 * that is shorter than ten minutes, so engines always get credentials with time left, and never
 * credentials that have expired. {@link #forget()} drops everything.
 */
public final class CredentialCache implements CredentialVendor {
  private static final Duration REFRESH_BEFORE_EXPIRY = Duration.ofMinutes(5);

  /** Past this many entries, a new one first sweeps out those no longer served. */
  private static final int SWEEP_ABOVE = 1024;

  private record Entry(VendedCredentials credentials, Instant refreshAt) {}

  private final CredentialVendor vendor;
  private final Clock clock;
  private final Map<SessionRequest, Entry> entries = new ConcurrentHashMap<>();

  public CredentialCache(CredentialVendor vendor, Clock clock) {
    this.vendor = vendor;
    this.clock = clock;
  }

  @Override
  public Optional<String> role(Warehouse warehouse) {
    return vendor.role(warehouse);
  }

  @Override
  public VendedCredentials vend(SessionRequest request) {
    Instant now = clock.instant();
    Entry entry = entries.get(request);
    if (entry != null && now.isBefore(entry.refreshAt())) {
      return entry.credentials();
    }
    VendedCredentials fresh = vendor.vend(request);
    Instant refreshAt = refreshAt(now, fresh.expiration());
    if (now.isBefore(refreshAt)) {
      if (entries.size() >= SWEEP_ABOVE) {
        entries.values().removeIf(old -> !now.isBefore(old.refreshAt()));
      }
      entries.put(request, new Entry(fresh, refreshAt));
    } else {
      entries.remove(request);
    }
    return fresh;
  }

  private static Instant refreshAt(Instant issued, Instant expiration) {
    Duration lifetime = Duration.between(issued, expiration);
    Duration kept = lifetime.minus(REFRESH_BEFORE_EXPIRY);
    Duration half = lifetime.dividedBy(2);
    return issued.plus(kept.compareTo(half) < 0 ? half : kept);
  }

  @Override
  public Map<String, String> clientProperties() {
    return vendor.clientProperties();
  }

  @Override
  public void forget() {
    entries.clear();
    vendor.forget();
  }
}
