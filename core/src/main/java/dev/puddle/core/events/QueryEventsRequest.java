package dev.puddle.core.events;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * The body of {@code POST /v1/{prefix}/events}, as the events proposal's {@code QueryEventsRequest}
 * has it. Every field is optional; {@code catalog-objects-by-name} lists namespaces and tables or
 * views by their levels (a table's name last). Puddle accepts no custom filters: a request naming
 * one is refused, so that no filter is silently ignored.
 */
public record QueryEventsRequest(
    @JsonProperty("continuation-token") String continuationToken,
    @JsonProperty("page-size") Integer pageSize,
    @JsonProperty("since-timestamp-ms") Long sinceTimestampMs,
    @JsonProperty("operation-types") List<String> operationTypes,
    @JsonProperty("catalog-objects-by-name") List<List<String>> catalogObjectsByName,
    @JsonProperty("catalog-objects-by-uuid") List<String> catalogObjectsByUuid,
    @JsonProperty("object-types") List<String> objectTypes,
    @JsonProperty("custom-filters") Map<String, String> customFilters) {}
