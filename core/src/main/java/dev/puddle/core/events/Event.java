package dev.puddle.core.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonRawValue;
import java.util.Map;

/**
 * One event of the feed, as the events proposal's {@code Event} has it: which request made the
 * change and how many events that request wrote, when, who, and the operation (an object with its
 * {@code operation-type} and the fields of that type, written as the feed stored it).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Event(
    @JsonProperty("event-id") String eventId,
    @JsonProperty("request-id") String requestId,
    @JsonProperty("request-event-count") int requestEventCount,
    @JsonProperty("timestamp-ms") long timestampMs,
    @JsonProperty("actor") Map<String, String> actor,
    @JsonProperty("operation") @JsonRawValue String operation) {}
