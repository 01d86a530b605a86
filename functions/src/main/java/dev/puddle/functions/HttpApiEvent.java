package dev.puddle.functions;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * An API Gateway HTTP API event, payload format 2.0, as Lambda delivers it. API Gateway has already
 * decoded {@code rawPath}, the path parameters and the query parameters.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record HttpApiEvent(
    @JsonProperty("version") String version,
    @JsonProperty("routeKey") String routeKey,
    @JsonProperty("rawPath") String rawPath,
    @JsonProperty("rawQueryString") String rawQueryString,
    @JsonProperty("cookies") List<String> cookies,
    @JsonProperty("headers") Map<String, String> headers,
    @JsonProperty("queryStringParameters") Map<String, String> queryStringParameters,
    @JsonProperty("pathParameters") Map<String, String> pathParameters,
    @JsonProperty("requestContext") RequestContext requestContext,
    @JsonProperty("body") String body,
    @JsonProperty("isBase64Encoded") boolean isBase64Encoded) {

  /** The parts of the request context Puddle reads. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record RequestContext(
      @JsonProperty("accountId") String accountId,
      @JsonProperty("apiId") String apiId,
      @JsonProperty("domainName") String domainName,
      @JsonProperty("http") Http http,
      @JsonProperty("requestId") String requestId,
      @JsonProperty("routeKey") String routeKey,
      @JsonProperty("stage") String stage,
      @JsonProperty("time") String time,
      @JsonProperty("timeEpoch") long timeEpoch) {}

  /** The HTTP part of the request context. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Http(
      @JsonProperty("method") String method,
      @JsonProperty("path") String path,
      @JsonProperty("protocol") String protocol,
      @JsonProperty("sourceIp") String sourceIp,
      @JsonProperty("userAgent") String userAgent) {}
}
