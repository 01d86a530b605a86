package dev.puddle.cdk;

import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CfnElement;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.ec2.InterfaceVpcEndpoint;
import software.amazon.awscdk.services.s3.Bucket;
import software.constructs.IConstruct;

/**
 * The cdk-nag AwsSolutions findings the stack accepts, each with its reason. Every suppression
 * names the resource it applies to, and for wildcard findings the exact resource pattern, so a new
 * finding anywhere else still fails the checks.
 */
final class Suppressions {
  private Suppressions() {}

  static void apply(
      Stack stack,
      Settings settings,
      Map<Group, PuddleFunction> functions,
      WarehouseBucket warehouse,
      Metastore metastore,
      Network network,
      CatalogHttpApi api,
      IConstruct signingKey,
      IConstruct vendingRole) {
    suppress(
        api,
        "AwsSolutions-APIG4",
        "Puddle authenticates every route but the probes itself: the functions validate the bearer"
            + " JWT of each request (Puddle's own tokens, or an external issuer's) and check the"
            + " caller's privileges on the route's object, which API Gateway cannot. The probes"
            + " and the token endpoint must be reachable without a token. With the context"
            + " parameter jwtIssuer, API Gateway validates the external issuer's tokens too.");

    String objects = "Resource::" + bucketArn(stack, warehouse) + "/*";
    String metadata = "Resource::" + bucketArn(stack, warehouse) + "/*/metadata/*";
    suppress(
        functions.get(Group.WRITE).role(),
        "AwsSolutions-IAM5",
        "The write function reads any object of the warehouse bucket (registerTable and"
            + " registerView read the metadata file they are given, wherever the engine put it),"
            + " and writes and deletes only metadata files (<table location>/metadata/*): a commit"
            + " writes one, and a commit that lost the race deletes the one it wrote. Table"
            + " locations are created at run time, so the object names hold wildcards.",
        objects,
        metadata);
    suppress(
        functions.get(Group.PURGE).role(),
        "AwsSolutions-IAM5",
        "The purge function deletes a dropped table's files: everything under its location and"
            + " every file its metadata reaches, which may lie anywhere in the warehouse bucket"
            + " (reading manifests to find them). Only this function may delete objects broadly.",
        objects);
    suppress(
        vendingRole,
        "AwsSolutions-IAM5",
        "Credential vending hands engines sessions of this role narrowed by a session policy to"
            + " one table's location; the role itself spans the warehouse bucket, where table"
            + " locations are created at run time.",
        objects);

    suppress(
        signingKey,
        "AwsSolutions-SMG4",
        "Rotating the token signing key is three changes of its JWK set spaced by the 15 minutes"
            + " every function takes to reload keys and a token lifetime (README, Authentication),"
            + " which a Secrets Manager rotation function would have to spread over days of"
            + " pending versions; operators put the new versions themselves, with no redeploy.");
    suppress(
        metastore.cluster().getNode().findChild("Secret"),
        "AwsSolutions-SMG4",
        "The functions never keep this login: in the standard profile they use IAM auth through"
            + " RDS Proxy (only the proxy reads the secret), and in the lean profile they fetch it"
            + " again when PostgreSQL refuses it, so a rotation needs no redeploy. Scheduling one"
            + " needs a rotation function with a network path to the cluster and Secrets Manager,"
            + " which the lean profile's isolated VPC does not have; operators add it as needed.");

    if (warehouse.bucket() instanceof Bucket created) {
      suppress(
          created,
          "AwsSolutions-S1",
          "Server access logs would need a second bucket and are best-effort; the audit record"
              + " of object access is CloudTrail S3 data events, which accounts enable centrally."
              + " Puddle's own writes and deletes are in the functions' request logs.");
    }

    if (settings.runtime().equals("java21")) {
      for (PuddleFunction function : functions.values()) {
        suppress(
            function.function(),
            "AwsSolutions-L1",
            "The operator chose the java21 runtime (context parameter runtime); the default is"
                + " java25, the latest. Both run the artifact, built for Java 21.");
      }
    }
    if (network.functions() != null) {
      for (PuddleFunction function : functions.values()) {
        suppress(
            function.role(),
            "AwsSolutions-IAM4",
            "AWSLambdaVPCAccessExecutionRole is the policy Lambda needs to attach the function's"
                + " network interfaces in the VPC; its EC2 actions take no resource scoping.",
            "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/"
                + "AWSLambdaVPCAccessExecutionRole");
      }
    }
    for (IConstruct child : network.getNode().findAll()) {
      if (child instanceof InterfaceVpcEndpoint endpoint) {
        suppress(
            endpoint,
            "CdkNagValidationFailure",
            "The endpoint's security group admits HTTPS from the VPC's own CIDR block, a"
                + " reference cdk-nag cannot resolve at synth time (rule EC23).",
            "AwsSolutions-EC23");
      }
    }
  }

  /** How cdk-nag writes the bucket's ARN in its findings. */
  private static String bucketArn(Stack stack, WarehouseBucket warehouse) {
    if (warehouse.bucket() instanceof Bucket created) {
      return "<" + stack.getLogicalId((CfnElement) created.getNode().getDefaultChild()) + ".Arn>";
    }
    return "arn:<AWS::Partition>:s3:::" + warehouse.bucket().getBucketName();
  }

  private static void suppress(IConstruct construct, String rule, String reason, String... only) {
    NagPackSuppression.Builder suppression = NagPackSuppression.builder().id(rule).reason(reason);
    if (only.length > 0) {
      suppression.appliesTo(List.of((Object[]) only));
    }
    NagSuppressions.addResourceSuppressions(construct, List.of(suppression.build()), true);
  }
}
