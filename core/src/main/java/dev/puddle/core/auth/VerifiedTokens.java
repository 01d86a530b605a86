package dev.puddle.core.auth;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Bearer tokens verified lately, by their exact text, so an engine's stream of requests with the
 * same token costs one signature check instead of one each. An entry is good until the token
 * expires or the issuer's keys it was checked with are due to be read again, whichever comes first,
 * so a withdrawn key stops working no later than it would without the cache. Holds the most
 * recently used tokens only.
 */
final class VerifiedTokens {
  /** What a verification found, and until when it stands. */
  record Verified(Caller caller, String issuer, Object verifiedBy, Instant goodUntil) {}

  private final Map<String, Verified> entries;

  VerifiedTokens(int capacity) {
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Verified> eldest) {
            return size() > capacity;
          }
        };
  }

  /** The entry of {@code token}, if it stands at {@code now}. */
  synchronized Verified get(String token, Instant now) {
    Verified entry = entries.get(token);
    if (entry != null && !now.isBefore(entry.goodUntil())) {
      entries.remove(token);
      return null;
    }
    return entry;
  }

  synchronized void put(String token, Verified entry) {
    entries.put(token, entry);
  }

  synchronized void clear() {
    entries.clear();
  }
}
