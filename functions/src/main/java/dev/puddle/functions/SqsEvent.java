package dev.puddle.functions;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * An SQS event as Lambda's event source mapping delivers it: a batch of messages. Defined here
 * rather than taken from Lambda's event library, whose classes plain Jackson maps wrongly (the
 * batch is {@code Records}, capitalised).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SqsEvent(@JsonProperty("Records") List<Message> records) {

  /** One message of the batch. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Message(
      @JsonProperty("messageId") String messageId,
      @JsonProperty("receiptHandle") String receiptHandle,
      @JsonProperty("body") String body,
      @JsonProperty("attributes") Map<String, String> attributes,
      @JsonProperty("messageAttributes") Map<String, MessageAttribute> messageAttributes,
      @JsonProperty("md5OfBody") String md5OfBody,
      @JsonProperty("eventSource") String eventSource,
      @JsonProperty("eventSourceARN") String eventSourceArn,
      @JsonProperty("awsRegion") String awsRegion) {

    /** How often SQS has delivered the message, this delivery included. */
    public int receiveCount() {
      String count = attributes == null ? null : attributes.get("ApproximateReceiveCount");
      return count == null ? 1 : Integer.parseInt(count);
    }
  }

  /** A message attribute, as Lambda spells it. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record MessageAttribute(
      @JsonProperty("stringValue") String stringValue,
      @JsonProperty("binaryValue") String binaryValue,
      @JsonProperty("dataType") String dataType) {}
}
