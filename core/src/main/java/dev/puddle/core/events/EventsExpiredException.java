package dev.puddle.core.events;

import java.util.Locale;

/**
 * 410 Gone: a query of the feed reaches back past the warehouse's retention, whose events may be
 * gone, so an answer could silently miss some. The consumer starts again from a recent time.
 */
public class EventsExpiredException extends RuntimeException {
  public EventsExpiredException(String message, Object... args) {
    super(String.format(Locale.ROOT, message, args));
  }
}
