package dev.puddle.core.purge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.UUID;

/**
 * The body of a purge queue message: {@code {"job":"<id>"}} for a purge, {@code
 * {"job":"<id>","kind":"maintenance"}} for another kind of job. It names the job only; the job row
 * says what to do and where the job stands, so a first message, a continuation, a retry and a
 * re-send are all alike. A message without a kind is a purge's, as messages were before there were
 * other kinds.
 */
public final class PurgeMessage {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What a message names. */
  public record Addressed(JobKind kind, UUID job) {}

  private PurgeMessage() {}

  public static String body(UUID job) {
    return body(JobKind.PURGE, job);
  }

  public static String body(JobKind kind, UUID job) {
    ObjectNode body = JSON.createObjectNode().put("job", job.toString());
    if (kind != JobKind.PURGE) {
      body.put("kind", kind.wireName());
    }
    return body.toString();
  }

  /** The job a body names; IllegalArgumentException if it names none. */
  public static UUID job(String body) {
    return addressed(body).job();
  }

  /** The job a body names and its kind; IllegalArgumentException if it names none. */
  public static Addressed addressed(String body) {
    try {
      JsonNode message = JSON.readTree(body == null ? "" : body);
      JsonNode job = message.path("job");
      JsonNode kind = message.path("kind");
      if (!job.isTextual() || !(kind.isMissingNode() || kind.isTextual())) {
        throw new IllegalArgumentException("Not a purge message: " + body);
      }
      return new Addressed(
          kind.isMissingNode() ? JobKind.PURGE : JobKind.fromWireName(kind.asText()),
          UUID.fromString(job.asText()));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Not a purge message: " + body, e);
    }
  }
}
