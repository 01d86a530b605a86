package dev.puddle.core.metastore.dataapi;

/**
 * Sizes of strings as they travel in the Data API's JSON requests: escapes make text full of quotes
 * or control characters much larger on the wire than in the database.
 */
final class JsonText {
  private JsonText() {}

  /** The number of UTF-8 bytes of {@code value} written as a JSON string, quotes included. */
  static long encodedLength(String value) {
    long bytes = 2;
    for (int i = 0; i < value.length(); i += step(value, i)) {
      bytes += encodedLength(value, i);
    }
    return bytes;
  }

  /**
   * Where a piece of {@code value} starting at {@code start} must end for its JSON string to take
   * at most {@code budget} bytes; a surrogate pair is never split.
   */
  static int fittingEnd(String value, int start, long budget) {
    long bytes = 2;
    int i = start;
    while (i < value.length()) {
      int size = encodedLength(value, i);
      if (bytes + size > budget) {
        break;
      }
      bytes += size;
      i += step(value, i);
    }
    return i;
  }

  private static int step(String value, int i) {
    return Character.isHighSurrogate(value.charAt(i)) && i + 1 < value.length() ? 2 : 1;
  }

  /** The bytes of the character at {@code i} (with its low surrogate, if it has one). */
  private static int encodedLength(String value, int i) {
    char c = value.charAt(i);
    if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f') {
      return 2;
    } else if (c < 0x20) {
      return 6;
    } else if (c < 0x80) {
      return 1;
    } else if (c < 0x800) {
      return 2;
    } else if (step(value, i) == 2) {
      return 4;
    } else if (Character.isSurrogate(c)) {
      return 6; // not UTF-8 on its own: at most a six-character escape
    }
    return 3;
  }
}
