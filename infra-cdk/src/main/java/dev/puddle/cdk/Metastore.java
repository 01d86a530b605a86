package dev.puddle.cdk;

import dev.puddle.contract.EnvironmentVariable;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Names;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.UniqueResourceNameOptions;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.rds.AuroraPostgresClusterEngineProps;
import software.amazon.awscdk.services.rds.AuroraPostgresEngineVersion;
import software.amazon.awscdk.services.rds.ClusterInstance;
import software.amazon.awscdk.services.rds.Credentials;
import software.amazon.awscdk.services.rds.DatabaseCluster;
import software.amazon.awscdk.services.rds.DatabaseClusterEngine;
import software.amazon.awscdk.services.rds.DatabaseProxy;
import software.amazon.awscdk.services.rds.DatabaseProxyOptions;
import software.amazon.awscdk.services.rds.ServerlessV2ClusterInstanceProps;
import software.constructs.Construct;

/**
 * The PostgreSQL metastore: Aurora PostgreSQL Serverless v2, reached through RDS Proxy with IAM
 * auth and TLS required (standard), or over the RDS Data API from outside the VPC, pausing at 0 ACU
 * when idle (lean). Knows the environment variables that point a function at it and the permissions
 * a function needs to use it, and nothing more.
 */
final class Metastore extends Construct {
  /** The database and its login: the cluster's generated secret, which the proxy also uses. */
  static final String DATABASE = "puddle";

  static final String USER = "puddle";

  private final DatabaseCluster cluster;
  private final DatabaseProxy proxy;

  Metastore(Construct scope, String id, Settings settings, Network network) {
    super(scope, id);
    IVpc vpc = network.vpc();
    AuroraPostgresEngineVersion version =
        settings.auroraVersion() == 16
            ? AuroraPostgresEngineVersion.VER_16_11
            : AuroraPostgresEngineVersion.VER_17_7;
    DatabaseCluster.Builder builder =
        DatabaseCluster.Builder.create(this, "Cluster")
            .engine(
                DatabaseClusterEngine.auroraPostgres(
                    AuroraPostgresClusterEngineProps.builder().version(version).build()))
            .vpc(vpc)
            .vpcSubnets(privateSubnets(vpc))
            .credentials(Credentials.fromGeneratedSecret(USER))
            .defaultDatabaseName(DATABASE)
            .writer(
                ClusterInstance.serverlessV2(
                    "Writer",
                    ServerlessV2ClusterInstanceProps.builder()
                        .publiclyAccessible(false)
                        .autoMinorVersionUpgrade(true)
                        .build()))
            .serverlessV2MinCapacity(settings.minAcu())
            .serverlessV2MaxCapacity(settings.maxAcu())
            .storageEncrypted(true)
            .iamAuthentication(true)
            .deletionProtection(settings.deletionProtection())
            .removalPolicy(RemovalPolicy.SNAPSHOT);
    if (settings.lean()) {
      builder
          .enableDataApi(true)
          .serverlessV2AutoPauseDuration(Duration.minutes(settings.autoPauseMinutes()));
    }
    cluster = builder.build();

    if (settings.lean()) {
      proxy = null;
    } else {
      SecurityGroup functions = network.functions();
      proxy =
          cluster.addProxy(
              "Proxy",
              DatabaseProxyOptions.builder()
                  .vpc(vpc)
                  // unique in the account and region, so that stacks do not collide
                  .dbProxyName(
                      Names.uniqueResourceName(
                          this,
                          UniqueResourceNameOptions.builder().maxLength(60).separator("-").build()))
                  .secrets(List.of(cluster.getSecret()))
                  .iamAuth(true)
                  .requireTls(true)
                  .borrowTimeout(Duration.seconds(20))
                  .build());
      proxy.getConnections().allowFrom(functions, Port.tcp(5432), "functions to the proxy");
      cluster.getConnections().allowDefaultPortFrom(proxy, "the proxy to the cluster");
    }
  }

  /** The VPC's private subnets with a route out, else its isolated ones. */
  private static SubnetSelection privateSubnets(IVpc vpc) {
    return SubnetSelection.builder()
        .subnets(
            vpc.getPrivateSubnets().isEmpty() ? vpc.getIsolatedSubnets() : vpc.getPrivateSubnets())
        .build();
  }

  DatabaseCluster cluster() {
    return cluster;
  }

  /** The proxy; null in the lean profile. */
  DatabaseProxy proxy() {
    return proxy;
  }

  /** What points a function at the metastore. */
  Map<EnvironmentVariable, String> environment() {
    if (proxy == null) {
      return Map.of(
          EnvironmentVariable.DB_MODE,
          "data-api",
          EnvironmentVariable.DB_CLUSTER_ARN,
          cluster.getClusterArn(),
          EnvironmentVariable.DB_SECRET_ARN,
          cluster.getSecret().getSecretArn(),
          EnvironmentVariable.DB_NAME,
          DATABASE);
    }
    // verify-full against the JVM's trust store: the proxy's certificate comes from ACM
    return Map.of(
        EnvironmentVariable.DB_MODE,
        "jdbc",
        EnvironmentVariable.DB_URL,
        "jdbc:postgresql://"
            + proxy.getEndpoint()
            + ":5432/"
            + DATABASE
            + "?sslmode=verify-full&sslfactory=org.postgresql.ssl.DefaultJavaSSLFactory",
        EnvironmentVariable.DB_AUTH,
        "iam",
        EnvironmentVariable.DB_USER,
        USER);
  }

  /**
   * Lets a role use the metastore: {@code rds-db:connect} as the one user through the proxy, or the
   * four Data API calls Puddle makes on this cluster and the reading of its secret.
   */
  void grantAccess(IRole role) {
    if (proxy != null) {
      proxy.grantConnect(role, USER);
      return;
    }
    role.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .actions(
                List.of(
                    "rds-data:ExecuteStatement",
                    "rds-data:BeginTransaction",
                    "rds-data:CommitTransaction",
                    "rds-data:RollbackTransaction"))
            .resources(List.of(cluster.getClusterArn()))
            .build());
    role.addToPrincipalPolicy(
        PolicyStatement.Builder.create()
            .actions(List.of("secretsmanager:GetSecretValue"))
            .resources(List.of(cluster.getSecret().getSecretArn()))
            .build());
  }
}
