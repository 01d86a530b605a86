package dev.puddle.core.purge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.UUID;

/**
 * The body of a purge message: {@code {"job":"<id>"}}. It names the job only; the job row says what
 * to delete and where the purge stands, so a first message, a continuation, a retry and a re-send
 * are all alike.
 */
public final class PurgeMessage {
  private static final ObjectMapper JSON = new ObjectMapper();

  private PurgeMessage() {}

  public static String body(UUID job) {
    return JSON.createObjectNode().put("job", job.toString()).toString();
  }

  /** The job a body names; IllegalArgumentException if it names none. */
  public static UUID job(String body) {
    try {
      JsonNode job = JSON.readTree(body == null ? "" : body).path("job");
      if (!job.isTextual()) {
        throw new IllegalArgumentException("Not a purge message: " + body);
      }
      return UUID.fromString(job.asText());
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Not a purge message: " + body, e);
    }
  }
}
