package dev.puddle.functions;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;

/** The response API Gateway expects from a payload format 2.0 integration. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HttpApiResponse(
    @JsonProperty("statusCode") int statusCode,
    @JsonProperty("headers") Map<String, String> headers,
    @JsonProperty("body") String body,
    @JsonProperty("isBase64Encoded") boolean isBase64Encoded) {}
