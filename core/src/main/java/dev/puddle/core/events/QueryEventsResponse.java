package dev.puddle.core.events;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The answer to {@code POST /v1/{prefix}/events}, as the events proposal's {@code
 * QueryEventsResponse} has it: a page of events, oldest first, and the token that continues after
 * it. The token is always present: a consumer polls with it for events committed later.
 */
public record QueryEventsResponse(
    @JsonProperty("continuation-token") String continuationToken,
    @JsonProperty("events") List<Event> events) {}
