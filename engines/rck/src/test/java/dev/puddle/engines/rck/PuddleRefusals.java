package dev.puddle.engines.rck;

import java.util.Map;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The kit's tests that ask for what Puddle refuses on purpose, skipped with the reason. Registered
 * through JUnit's extension auto-detection, since the kit's classes cannot be annotated.
 */
public final class PuddleRefusals implements ExecutionCondition {
  private static final String OUTSIDE =
      "On purpose: Puddle refuses a table or view location outside the warehouse's (400 'Location"
          + " file:/tmp/… is outside the warehouse location s3://warehouse/default')";
  private static final String OUTSIDE_CLIENT =
      "On purpose: the test asks for a table at file:/tmp/…, outside the warehouse; the client's"
          + " FileIO (S3FileIO, from Puddle's /v1/config) cannot write its manifests there, and"
          + " Puddle would refuse the location (400)";

  private static final Map<String, String> REASONS =
      Map.ofEntries(
          Map.entry("testCompleteCreateTable", OUTSIDE),
          Map.entry("testCreateTableWithDefaultColumnValue", OUTSIDE),
          Map.entry("testLoadTable", OUTSIDE),
          Map.entry("completeCreateView", OUTSIDE),
          Map.entry("createAndReplaceViewWithLocation", OUTSIDE),
          Map.entry("createViewWithCustomMetadataLocation", OUTSIDE),
          Map.entry("updateViewLocation", OUTSIDE),
          Map.entry("testCompleteCreateTransaction", OUTSIDE_CLIENT),
          Map.entry("testCompleteCreateTransactionV2", OUTSIDE_CLIENT),
          Map.entry("testCompleteCreateTransactionMultipleSchemas", OUTSIDE_CLIENT),
          Map.entry("testCompleteCreateOrReplaceTransactionCreate", OUTSIDE_CLIENT),
          Map.entry("testCompleteCreateOrReplaceTransactionReplace", OUTSIDE_CLIENT),
          Map.entry("testCompleteReplaceTransaction", OUTSIDE_CLIENT),
          Map.entry(
              "testLoadTableWithMissingMetadataFile",
              "The test deletes the table's metadata file through the local file system"
                  + " (java.nio), which cannot reach the twin's S3"));

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    return context
        .getTestMethod()
        .map(method -> REASONS.get(method.getName()))
        .map(ConditionEvaluationResult::disabled)
        .orElse(ConditionEvaluationResult.enabled("Puddle serves it"));
  }
}
