package dev.puddle.core.vending;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.puddle.core.access.AccessLevel;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;
import org.junit.jupiter.api.Test;

class SessionPolicyTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TABLE = "s3://lake/warehouse/sales/orders-1a2b";

  @Test
  void readersMayGetAndListObjectsOfTheTableOnly() throws Exception {
    CredentialScope scope = CredentialScope.forTable(AccessLevel.READ, TABLE + "/", Map.of());

    assertThat(JSON.readTree(SessionPolicy.json(scope, "aws")))
        .isEqualTo(
            JSON.readTree(
                """
                {"Version": "2012-10-17",
                 "Statement": [
                  {"Sid": "ReadObjects", "Effect": "Allow",
                   "Action": ["s3:GetObject", "s3:GetObjectVersion"],
                   "Resource": ["arn:aws:s3:::lake/warehouse/sales/orders-1a2b/*"]},
                  {"Sid": "ListLocations", "Effect": "Allow",
                   "Action": ["s3:ListBucket"],
                   "Resource": ["arn:aws:s3:::lake"],
                   "Condition": {"StringLike": {"s3:prefix": [
                     "warehouse/sales/orders-1a2b/*", "warehouse/sales/orders-1a2b"]}}},
                  {"Sid": "LocateBuckets", "Effect": "Allow",
                   "Action": ["s3:GetBucketLocation"],
                   "Resource": ["arn:aws:s3:::lake"]}
                 ]}
                """));
  }

  @Test
  void writersMayAlsoPutAndDeleteObjectsOfTheTable() throws Exception {
    CredentialScope scope = CredentialScope.forTable(AccessLevel.WRITE, TABLE, Map.of());

    assertThat(JSON.readTree(SessionPolicy.json(scope, "aws")))
        .isEqualTo(
            JSON.readTree(
                """
                {"Version": "2012-10-17",
                 "Statement": [
                  {"Sid": "ReadObjects", "Effect": "Allow",
                   "Action": ["s3:GetObject", "s3:GetObjectVersion"],
                   "Resource": ["arn:aws:s3:::lake/warehouse/sales/orders-1a2b/*"]},
                  {"Sid": "WriteObjects", "Effect": "Allow",
                   "Action": ["s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload"],
                   "Resource": ["arn:aws:s3:::lake/warehouse/sales/orders-1a2b/*"]},
                  {"Sid": "ListLocations", "Effect": "Allow",
                   "Action": ["s3:ListBucket"],
                   "Resource": ["arn:aws:s3:::lake"],
                   "Condition": {"StringLike": {"s3:prefix": [
                     "warehouse/sales/orders-1a2b/*", "warehouse/sales/orders-1a2b"]}}},
                  {"Sid": "LocateBuckets", "Effect": "Allow",
                   "Action": ["s3:GetBucketLocation"],
                   "Resource": ["arn:aws:s3:::lake"]}
                 ]}
                """));
  }

  @Test
  void dataAndMetadataPathsOutsideTheLocationAreReachableToo() throws Exception {
    CredentialScope scope =
        CredentialScope.forTable(
            AccessLevel.WRITE,
            TABLE,
            Map.of(
                "write.data.path",
                "s3a://bulk/orders/data/",
                // inside the location already: no statement of its own
                "write.metadata.path",
                TABLE + "/meta"));

    assertThat(scope.locations()).containsExactly(TABLE, "s3a://bulk/orders/data");
    JsonNode policy = JSON.readTree(SessionPolicy.json(scope, "aws-cn"));
    assertThat(policy.get("Statement"))
        .isEqualTo(
            JSON.readTree(
                """
                [
                 {"Sid": "ReadObjects", "Effect": "Allow",
                  "Action": ["s3:GetObject", "s3:GetObjectVersion"],
                  "Resource": ["arn:aws-cn:s3:::lake/warehouse/sales/orders-1a2b/*",
                               "arn:aws-cn:s3:::bulk/orders/data/*"]},
                 {"Sid": "WriteObjects", "Effect": "Allow",
                  "Action": ["s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload"],
                  "Resource": ["arn:aws-cn:s3:::lake/warehouse/sales/orders-1a2b/*",
                               "arn:aws-cn:s3:::bulk/orders/data/*"]},
                 {"Sid": "ListLocations", "Effect": "Allow",
                  "Action": ["s3:ListBucket"],
                  "Resource": ["arn:aws-cn:s3:::lake"],
                  "Condition": {"StringLike": {"s3:prefix": [
                    "warehouse/sales/orders-1a2b/*", "warehouse/sales/orders-1a2b"]}}},
                 {"Sid": "ListLocations2", "Effect": "Allow",
                  "Action": ["s3:ListBucket"],
                  "Resource": ["arn:aws-cn:s3:::bulk"],
                  "Condition": {"StringLike": {"s3:prefix": [
                    "orders/data/*", "orders/data"]}}},
                 {"Sid": "LocateBuckets", "Effect": "Allow",
                  "Action": ["s3:GetBucketLocation"],
                  "Resource": ["arn:aws-cn:s3:::lake", "arn:aws-cn:s3:::bulk"]}
                ]
                """));
  }

  @Test
  void aWholeBucketIsNeverVended() {
    CredentialScope scope = CredentialScope.forTable(AccessLevel.READ, "s3://lake/", Map.of());

    assertThatThrownBy(() -> SessionPolicy.json(scope, "aws"))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("whole bucket");
  }

  @Test
  void onlyS3LocationsGetCredentials() {
    CredentialScope scope =
        CredentialScope.forTable(AccessLevel.READ, "file:/tmp/warehouse/t", Map.of());

    assertThatThrownBy(() -> SessionPolicy.json(scope, "aws"))
        .isInstanceOf(BadRequestException.class)
        .hasMessageContaining("not an S3 location");
  }
}
