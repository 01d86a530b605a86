package dev.puddle.core.vending;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.puddle.core.access.AccessLevel;
import dev.puddle.core.storage.S3Location;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The inline session policy of an {@code AssumeRole}: the intersection of the warehouse role's own
 * policy and this one is what the credentials may do, so they reach the scope's locations only,
 * never a whole bucket. Readers may get objects (and their versions) under each location, list the
 * bucket below it and find the bucket's region; writers may also put and delete objects and abort
 * multipart uploads there.
 */
public final class SessionPolicy {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> READ_ACTIONS = List.of("s3:GetObject", "s3:GetObjectVersion");
  private static final List<String> WRITE_ACTIONS =
      List.of("s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload");

  private SessionPolicy() {}

  /** The policy document for {@code scope}, with ARNs in {@code partition} (e.g. {@code aws}). */
  public static String json(CredentialScope scope, String partition) {
    // bucket -> key prefixes in it, in the scope's order
    Map<String, List<String>> prefixes = new LinkedHashMap<>();
    for (String location : scope.locations()) {
      S3Location s3 =
          S3Location.parse(location)
              .orElseThrow(
                  () ->
                      new BadRequestException(
                          "Cannot vend credentials for %s: not an S3 location", location));
      if (s3.key().isEmpty()) {
        throw new BadRequestException(
            "Cannot vend credentials for %s: it is a whole bucket", location);
      }
      prefixes.computeIfAbsent(s3.bucket(), bucket -> new ArrayList<>()).add(s3.key());
    }
    String arn = "arn:" + partition + ":s3:::";
    ObjectNode policy = JSON.createObjectNode();
    policy.put("Version", "2012-10-17");
    ArrayNode statements = policy.putArray("Statement");
    ArrayNode objects = JSON.createArrayNode();
    prefixes.forEach(
        (bucket, keys) -> keys.forEach(key -> objects.add(arn + bucket + "/" + key + "/*")));
    statements.add(statement("ReadObjects", READ_ACTIONS, objects));
    if (scope.access() == AccessLevel.WRITE) {
      statements.add(statement("WriteObjects", WRITE_ACTIONS, objects));
    }
    int bucketIndex = 0;
    for (Map.Entry<String, List<String>> bucket : prefixes.entrySet()) {
      // statement ids are unique within a policy: one listing statement per bucket
      String sid = "ListLocations" + (bucketIndex++ == 0 ? "" : String.valueOf(bucketIndex));
      ObjectNode list = statement(sid, List.of("s3:ListBucket"), array(arn + bucket.getKey()));
      ArrayNode allowed = list.putObject("Condition").putObject("StringLike").putArray("s3:prefix");
      bucket.getValue().forEach(key -> allowed.add(key + "/*").add(key));
      statements.add(list);
    }
    ArrayNode buckets = JSON.createArrayNode();
    prefixes.keySet().forEach(bucket -> buckets.add(arn + bucket));
    statements.add(statement("LocateBuckets", List.of("s3:GetBucketLocation"), buckets));
    try {
      return JSON.writeValueAsString(policy);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ObjectNode statement(String sid, List<String> actions, ArrayNode resources) {
    ObjectNode statement = JSON.createObjectNode();
    statement.put("Sid", sid);
    statement.put("Effect", "Allow");
    ArrayNode action = statement.putArray("Action");
    actions.forEach(action::add);
    statement.set("Resource", resources);
    return statement;
  }

  private static ArrayNode array(String value) {
    return JSON.createArrayNode().add(value);
  }
}
