package dev.puddle.functions;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * An API Gateway HTTP API event, payload format 2.0, as Lambda delivers it. API Gateway has already
 * decoded {@code rawPath}, the path parameters and the query parameters.
 *
 * <p>It is also the event the local twin's bridge writes, field for field as API Gateway would, so
 * it carries every field of the format, also those the handler never reads (the request context's
 * account, API, domain, stage and times, the protocol, source IP and user agent, the raw query
 * string and cookies): the twin's events are then exactly what a function receives.
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

  /** The request context: the handler reads the request id and the HTTP method. */
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
