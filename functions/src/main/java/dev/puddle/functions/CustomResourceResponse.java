package dev.puddle.functions;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.Map;

/**
 * The answer to a CloudFormation custom resource request, PUT to the request's presigned response
 * URL. CloudFormation waits for it (up to an hour), so it is sent whatever happened.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record CustomResourceResponse(
    @JsonProperty("Status") String status,
    @JsonProperty("Reason") String reason,
    @JsonProperty("PhysicalResourceId") String physicalResourceId,
    @JsonProperty("StackId") String stackId,
    @JsonProperty("RequestId") String requestId,
    @JsonProperty("LogicalResourceId") String logicalResourceId,
    @JsonProperty("Data") Map<String, String> data) {

  private static final ObjectMapper JSON = new ObjectMapper();

  static CustomResourceResponse success(
      CustomResourceEvent event, String physicalResourceId, Map<String, String> data) {
    return new CustomResourceResponse(
        "SUCCESS",
        null,
        physicalResourceId,
        event.stackId(),
        event.requestId(),
        event.logicalResourceId(),
        data);
  }

  static CustomResourceResponse failure(
      CustomResourceEvent event, String physicalResourceId, String reason) {
    return new CustomResourceResponse(
        "FAILED",
        reason,
        physicalResourceId,
        event.stackId(),
        event.requestId(),
        event.logicalResourceId(),
        null);
  }

  /**
   * PUTs this response to the URL; the URL is presigned without a content type, so none is sent.
   */
  void sendTo(String responseUrl) throws IOException {
    byte[] body = JSON.writeValueAsBytes(this);
    HttpURLConnection connection =
        (HttpURLConnection) URI.create(responseUrl).toURL().openConnection();
    try {
      connection.setRequestMethod("PUT");
      connection.setDoOutput(true);
      connection.setConnectTimeout(10_000);
      connection.setReadTimeout(30_000);
      connection.setRequestProperty("Content-Type", "");
      connection.setFixedLengthStreamingMode(body.length);
      try (OutputStream out = connection.getOutputStream()) {
        out.write(body);
      }
      int status = connection.getResponseCode();
      if (status / 100 != 2) {
        throw new IOException("CloudFormation refused the response: HTTP " + status);
      }
    } finally {
      connection.disconnect();
    }
  }
}
