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
      IConstruct rootCredential,
      IConstruct vendingRole,
      WebConsole console) {
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
        functions.get(Group.READ).role(),
        "AwsSolutions-IAM5",
        "The read function reads objects of the warehouse bucket, and only reads them:"
            + " server-side scan planning reads a table's manifest lists and manifests, which"
            + " lie under table locations created at run time.",
        objects);
    suppress(
        functions.get(Group.PLAN).role(),
        "AwsSolutions-IAM5",
        "The planning function reads objects of the warehouse bucket, and only reads them: it"
            + " plans submitted scans from a table's manifest lists and manifests, which lie under"
            + " table locations created at run time.",
        objects);
    suppress(
        functions.get(Group.PURGE).role(),
        "AwsSolutions-IAM5",
        "The purge function deletes a dropped table's files: everything under its location and"
            + " every file its metadata reaches, which may lie anywhere in the warehouse bucket"
            + " (reading manifests to find them). Its table maintenance deletes only files under"
            + " the maintained table's own location, and writes only metadata files"
            + " (<table location>/metadata/*), as every commit does. Only this function may delete"
            + " objects broadly.",
        objects,
        metadata);
    suppress(
        functions.get(Group.SIGN).role(),
        "AwsSolutions-IAM5",
        "The sign function signs engines' requests to their tables' files with its own role"
            + " (remote signing), so the role spans the warehouse bucket, where table locations are"
            + " created at run time; the function signs a request only within the locations of the"
            + " table it is asked for, and writes only for callers holding TABLE_WRITE_DATA.",
        objects);
    suppress(
        functions.get(Group.EXPORT).role(),
        "AwsSolutions-IAM5",
        "The catalog export writes only its own objects, <timestamp>.json and latest.json under"
            + " the control prefix _puddle/export/, named at run time.",
        "Resource::" + bucketArn(stack, warehouse) + "/_puddle/export/*");
    suppress(
        functions.get(Group.REBUILD).role(),
        "AwsSolutions-IAM5",
        "The rebuild, invoked by an operator after the metastore was lost, lists and reads every"
            + " metadata file of the warehouse bucket (table locations are created at run time) and"
            + " the latest catalog export; it writes no object.",
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
        "The token signing key is rotated in three changes of its JWK set, 15 minutes and a"
            + " token lifetime apart, so that every function has the new public key before it"
            + " signs (README, Authentication); operators put those versions of the secret, with"
            + " no redeploy. The first key is generated by the token function, never deployed.");
    suppress(
        rootCredential,
        "AwsSolutions-SMG4",
        "Root's credential is a client secret of Puddle's own principal store, not a login a"
            + " rotation Lambda could change on both sides: the migrate function gives root the"
            + " secret's value each time the migrations run, so an operator rotates it by putting"
            + " a new value in the secret and deploying (README, Deploying to AWS). Secrets"
            + " Manager generated the first value; it is in no template.");
    for (IConstruct secret : metastore.secrets()) {
      suppress(
          secret,
          "AwsSolutions-SMG4",
          "The functions never keep this login: in the standard profile they use IAM auth through"
              + " RDS Proxy (only the proxy reads the secret), and in the lean profile they fetch it"
              + " again when PostgreSQL refuses it, so a rotation needs no redeploy. Scheduling one"
              + " needs a rotation function with a network path to the cluster and Secrets Manager,"
              + " which the lean profile's isolated VPC does not have; operators add it as needed.");
    }

    if (warehouse.bucket() instanceof Bucket created) {
      suppress(
          created,
          "AwsSolutions-S1",
          "Server access logs would need a second bucket and are best-effort; the audit record"
              + " of object access is CloudTrail S3 data events, which accounts enable centrally."
              + " Puddle's own writes and deletes are in the functions' request logs.");
    }

    suppressConsole(stack, console);

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

  /** The web console's distribution and bucket, and CDK's function that uploads its files. */
  private static void suppressConsole(Stack stack, WebConsole console) {
    suppress(
        console.bucket(),
        "AwsSolutions-S1",
        "The bucket holds the console's built files, the same in every deployment, which only"
            + " the distribution reads (origin access control) and only deployments write:"
            + " access logs would record nothing but CloudFront's cache fills.");
    suppress(
        console.distribution(),
        "AwsSolutions-CFR1",
        "The console is for the catalog's operators, wherever they are; the API behind it"
            + " authenticates every call, as it does on its own endpoint.");
    suppress(
        console.distribution(),
        "AwsSolutions-CFR2",
        "A web ACL costs about $6 a month even when idle, against the stack's ~$0 idle cost;"
            + " the API authenticates every call and API Gateway throttles it. Operators who"
            + " want WAF attach a web ACL to the distribution.");
    suppress(
        console.distribution(),
        "AwsSolutions-CFR3",
        "Standard logs need a log bucket with ACLs; every API call through the distribution is"
            + " in the HTTP API's access log already, and the static files hold no data.");
    suppress(
        console.distribution(),
        "AwsSolutions-CFR4",
        "The distribution uses the default *.cloudfront.net certificate, whose security policy"
            + " CloudFront fixes (TLSv1); a custom domain with an ACM certificate and TLSv1.2_2021"
            + " needs a domain the stack does not have.");
    // CDK's singleton upload function, a child of the stack: it runs during deployments only
    for (IConstruct child : stack.getNode().getChildren()) {
      if (child.getNode().getId().startsWith("Custom::CDKBucketDeployment")) {
        suppress(
            child,
            "AwsSolutions-L1",
            "CDK's BucketDeployment function, whose runtime the CDK version pins; it runs only"
                + " while a deployment uploads the console's files.");
        suppress(
            child,
            "AwsSolutions-IAM4",
            "CDK's BucketDeployment function writes its logs with AWSLambdaBasicExecutionRole.",
            "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/"
                + "AWSLambdaBasicExecutionRole");
        suppress(
            child,
            "AwsSolutions-IAM5",
            "CDK's BucketDeployment function copies the asset from CDK's asset bucket into the"
                + " console's bucket, replacing and pruning every object (the grants CDK makes"
                + " for that), and invalidates the distribution's cache, an action IAM cannot"
                + " scope to a distribution created in the same template.");
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
