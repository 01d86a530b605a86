package dev.puddle.core.purge;

/**
 * A purge step that cannot succeed now: its message is retried, and after N receives dead-lettered.
 */
public final class PurgeException extends RuntimeException {
  public PurgeException(String message) {
    super(message);
  }
}
