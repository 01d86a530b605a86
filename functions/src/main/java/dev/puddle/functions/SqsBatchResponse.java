package dev.puddle.functions;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The answer to an SQS batch when the event source mapping reports batch item failures: only the
 * messages listed are redelivered, the others are deleted from the queue.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SqsBatchResponse(
    @JsonProperty("batchItemFailures") List<ItemFailure> batchItemFailures) {

  /** A message that failed, by its message id. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record ItemFailure(@JsonProperty("itemIdentifier") String itemIdentifier) {}
}
