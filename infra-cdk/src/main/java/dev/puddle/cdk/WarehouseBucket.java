package dev.puddle.cdk;

import dev.puddle.contract.WarehouseLayout;
import java.util.List;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.IBucket;
import software.amazon.awscdk.services.s3.LifecycleRule;
import software.amazon.awscdk.services.s3.ObjectOwnership;
import software.constructs.Construct;

/**
 * The warehouse bucket, where the default warehouse's tables live: created encrypted, with public
 * access blocked and a TLS-only policy, and kept when the stack is deleted; or an existing bucket
 * referenced by name (context {@code bucketName}).
 */
final class WarehouseBucket extends Construct {
  private final IBucket bucket;

  WarehouseBucket(Construct scope, String id, Settings settings) {
    super(scope, id);
    bucket =
        settings.bucketName() != null
            ? Bucket.fromBucketName(this, "Bucket", settings.bucketName())
            : Bucket.Builder.create(this, "Bucket")
                .encryption(BucketEncryption.S3_MANAGED)
                .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                .objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)
                .enforceSsl(true)
                .versioned(settings.bucketVersioning())
                .lifecycleRules(lifecycle(settings))
                .removalPolicy(RemovalPolicy.RETAIN)
                .build();
  }

  /**
   * With versioning, a delete (a purge, maintenance's expiry of snapshots and orphans) leaves the
   * object as a noncurrent version behind a delete marker: kept {@code bucketNoncurrentDays} to
   * undo a mistake, then expired, and the markers left alone afterwards removed, so that purged
   * files stop costing storage (docs/operations.md, "Backup and restore").
   */
  private static List<LifecycleRule> lifecycle(Settings settings) {
    if (!settings.bucketVersioning()) {
      return List.of();
    }
    return List.of(
        LifecycleRule.builder()
            .id("ExpireNoncurrentVersions")
            .noncurrentVersionExpiration(Duration.days(settings.bucketNoncurrentDays()))
            .expiredObjectDeleteMarker(true)
            .build());
  }

  IBucket bucket() {
    return bucket;
  }

  /** The default warehouse's location: the bucket's root. */
  String location() {
    return "s3://" + bucket.getBucketName();
  }

  /** Where the catalog export writes: a control prefix no table location uses. */
  String exportLocation() {
    return location() + "/" + WarehouseLayout.EXPORT_FOLDER;
  }

  /** The export's objects, the only ones the export function may write. */
  String exportObjects() {
    return bucket.arnForObjects(WarehouseLayout.EXPORT_FOLDER + "/*");
  }

  /**
   * The control folder's objects: Puddle's own, which no function deleting tables' files may
   * delete.
   */
  String controlObjects() {
    return bucket.arnForObjects(WarehouseLayout.CONTROL_FOLDER + "/*");
  }

  /** Every object in the bucket. */
  String objects() {
    return bucket.arnForObjects("*");
  }

  /**
   * Every object under a {@code metadata/} folder: where Iceberg puts the metadata files Puddle
   * writes, at {@code <table location>/metadata/}.
   */
  String metadataObjects() {
    return bucket.arnForObjects("*/metadata/*");
  }
}
