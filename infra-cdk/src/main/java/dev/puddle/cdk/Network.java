package dev.puddle.cdk;

import java.util.List;
import software.amazon.awscdk.services.ec2.FlowLogDestination;
import software.amazon.awscdk.services.ec2.FlowLogOptions;
import software.amazon.awscdk.services.ec2.FlowLogTrafficType;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointAwsService;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointOptions;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.InterfaceVpcEndpointAwsService;
import software.amazon.awscdk.services.ec2.InterfaceVpcEndpointOptions;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetConfiguration;
import software.amazon.awscdk.services.ec2.SubnetType;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.ec2.VpcLookupOptions;
import software.amazon.awscdk.services.logs.LogGroup;
import software.constructs.Construct;

/**
 * The VPC the database lives in, and in the standard profile the functions too.
 *
 * <p>Standard: private subnets for functions, the proxy and the cluster; an S3 gateway endpoint
 * (free) for metadata files and purges; and either interface endpoints for the other AWS APIs the
 * functions call (SQS for the purge outbox, Secrets Manager for the token signing key, STS for
 * credential vending) or a NAT gateway. No CloudWatch Logs endpoint: Lambda ships the functions'
 * logs itself, outside their VPC. Lean: isolated subnets for the cluster alone, no route anywhere,
 * since the functions reach it over the Data API.
 *
 * <p>An existing VPC (context {@code vpcId}) is used as it is: it must already give its private
 * subnets a way to those APIs.
 */
final class Network extends Construct {
  /** The interface endpoints the functions need when the VPC has no NAT gateway. */
  static final List<InterfaceVpcEndpointAwsService> INTERFACE_ENDPOINTS =
      List.of(
          InterfaceVpcEndpointAwsService.SQS,
          InterfaceVpcEndpointAwsService.SECRETS_MANAGER,
          InterfaceVpcEndpointAwsService.STS);

  private final IVpc vpc;
  private final SecurityGroup functions;

  Network(Construct scope, String id, Settings settings) {
    super(scope, id);
    if (settings.vpcId() != null) {
      vpc = Vpc.fromLookup(this, "Vpc", VpcLookupOptions.builder().vpcId(settings.vpcId()).build());
    } else if (settings.lean()) {
      vpc =
          Vpc.Builder.create(this, "Vpc")
              .maxAzs(settings.maxAzs())
              .natGateways(0)
              .subnetConfiguration(List.of(subnet("database", SubnetType.PRIVATE_ISOLATED)))
              .build();
    } else {
      boolean nat = settings.egress() == Settings.Egress.NAT;
      Vpc created =
          Vpc.Builder.create(this, "Vpc")
              .maxAzs(settings.maxAzs())
              .natGateways(nat ? settings.natGateways() : 0)
              .subnetConfiguration(
                  nat
                      ? List.of(
                          subnet("public", SubnetType.PUBLIC),
                          subnet("private", SubnetType.PRIVATE_WITH_EGRESS))
                      : List.of(subnet("private", SubnetType.PRIVATE_ISOLATED)))
              .build();
      created.addGatewayEndpoint(
          "S3",
          GatewayVpcEndpointOptions.builder().service(GatewayVpcEndpointAwsService.S3).build());
      if (!nat) {
        for (InterfaceVpcEndpointAwsService service : INTERFACE_ENDPOINTS) {
          created.addInterfaceEndpoint(
              endpointId(service),
              InterfaceVpcEndpointOptions.builder()
                  .service(service)
                  .privateDnsEnabled(true)
                  .build());
        }
      }
      vpc = created;
    }
    if (vpc instanceof Vpc created) {
      created.addFlowLog(
          "FlowLog",
          FlowLogOptions.builder()
              .destination(
                  FlowLogDestination.toCloudWatchLogs(
                      LogGroup.Builder.create(this, "FlowLogs")
                          .retention(Retention.days(settings.logRetentionDays()))
                          .build()))
              .trafficType(FlowLogTrafficType.REJECT)
              .build());
    }
    functions =
        settings.lean()
            ? null
            : SecurityGroup.Builder.create(this, "Functions")
                .vpc(vpc)
                .description("Puddle functions: out to the proxy and AWS APIs, nothing in")
                .allowAllOutbound(true)
                .build();
  }

  IVpc vpc() {
    return vpc;
  }

  /** The functions' security group; null in the lean profile, whose functions have no VPC. */
  SecurityGroup functions() {
    return functions;
  }

  private static SubnetConfiguration subnet(String name, SubnetType type) {
    return SubnetConfiguration.builder().name(name).subnetType(type).cidrMask(24).build();
  }

  private static String endpointId(InterfaceVpcEndpointAwsService service) {
    String name = service.getShortName();
    return Character.toUpperCase(name.charAt(0)) + name.substring(1).replace("-", "");
  }
}
