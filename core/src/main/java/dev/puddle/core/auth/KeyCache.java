package dev.puddle.core.auth;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keys of one issuer, cached per execution environment: loaded on first use, loaded again every
 * 15 minutes, and when a token names a key the cache does not hold, at most once per 30 seconds (so
 * a stream of tokens with made-up {@code kid}s cannot hammer the issuer). A load that fails keeps
 * the keys already held. Loads happen one at a time: requests arriving during a load wait for it
 * and use its result instead of loading again.
 *
 * <p>{@link #clear()} forgets everything, for a SnapStart restore: keys in a snapshot may be
 * arbitrarily old.
 */
public final class KeyCache implements JWKSource<SecurityContext> {
  /** Keys older than this are loaded again. */
  public static final Duration REFRESH_INTERVAL = Duration.ofMinutes(15);

  /** The least time between two loads not due to {@link #REFRESH_INTERVAL}. */
  public static final Duration MIN_RELOAD_INTERVAL = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(KeyCache.class);

  /** What the cache holds: the keys (null before the first successful load) and since when. */
  private record State(JWKSet keys, Instant loadedAt, Instant attemptedAt) {
    static final State EMPTY = new State(null, null, null);

    boolean mayAttempt(Instant now) {
      return attemptedAt == null || !now.isBefore(attemptedAt.plus(MIN_RELOAD_INTERVAL));
    }

    boolean stale(Instant now) {
      return keys == null || !now.isBefore(loadedAt.plus(REFRESH_INTERVAL));
    }
  }

  private final String name;
  private final KeySetSource source;
  private final Clock clock;
  private final ReentrantLock loading = new ReentrantLock();
  private volatile State state = State.EMPTY;

  /** A cache named {@code name} (the issuer, for messages) over {@code source}. */
  public KeyCache(String name, KeySetSource source, Clock clock) {
    this.name = name;
    this.source = source;
    this.clock = clock;
  }

  /**
   * The current keys, loaded first if none are held or they are due for their periodic refresh.
   *
   * @throws KeySourceException when no keys were ever loaded and they cannot be loaded now
   */
  public JWKSet keys() throws KeySourceException {
    State seen = state;
    if (seen.stale(clock.instant())) {
      seen = reload(seen, false);
    }
    if (seen.keys() == null) {
      throw new KeySourceException("The keys of " + name + " are not available");
    }
    return seen.keys();
  }

  /** Selects the keys a token asks for, loading once more (within the limits) if none match. */
  @Override
  public List<JWK> get(JWKSelector selector, SecurityContext context) throws KeySourceException {
    JWKSet keys = keys();
    List<JWK> matches = selector.select(keys);
    if (!matches.isEmpty()) {
      return matches;
    }
    JWKSet reloaded = reload(state, true).keys();
    return reloaded == null || reloaded == keys ? matches : selector.select(reloaded);
  }

  /**
   * When the keys held are due to be loaded again: a verification made with them stands no longer
   * (now, if none are held or a load is overdue).
   */
  public Instant nextLoadDue() {
    State seen = state;
    Instant now = clock.instant();
    return seen.stale(now) ? now : seen.loadedAt().plus(REFRESH_INTERVAL);
  }

  /** Forgets the keys, the load times and what the source holds on to. */
  public void clear() {
    loading.lock();
    try {
      state = State.EMPTY;
      source.forget();
    } finally {
      loading.unlock();
    }
  }

  /**
   * Loads the keys unless another thread did since {@code seen} was read, or the limits forbid it
   * ({@code unknownKey}: a token named a key not held; otherwise the keys are stale).
   */
  private State reload(State seen, boolean unknownKey) {
    loading.lock();
    try {
      State current = state;
      if (current != seen) {
        // another request loaded (or tried to) while this one waited: use its outcome
        return current;
      }
      Instant now = clock.instant();
      if (!current.mayAttempt(now) || (!unknownKey && !current.stale(now))) {
        return current;
      }
      try {
        JWKSet keys = source.load();
        state = new State(keys, now, now);
      } catch (IOException | RuntimeException e) {
        LOG.warn("Loading the keys of {} failed, keeping the cached ones: {}", name, e.toString());
        state = new State(current.keys(), current.loadedAt(), now);
      }
      return state;
    } finally {
      loading.unlock();
    }
  }
}
