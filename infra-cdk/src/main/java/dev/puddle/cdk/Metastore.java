package dev.puddle.cdk;

import dev.puddle.contract.EnvironmentVariable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Names;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.UniqueResourceNameOptions;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.rds.AuroraPostgresClusterEngineProps;
import software.amazon.awscdk.services.rds.AuroraPostgresEngineVersion;
import software.amazon.awscdk.services.rds.BackupProps;
import software.amazon.awscdk.services.rds.ClusterInstance;
import software.amazon.awscdk.services.rds.Credentials;
import software.amazon.awscdk.services.rds.DatabaseCluster;
import software.amazon.awscdk.services.rds.DatabaseClusterBase;
import software.amazon.awscdk.services.rds.DatabaseClusterEngine;
import software.amazon.awscdk.services.rds.DatabaseClusterFromSnapshot;
import software.amazon.awscdk.services.rds.DatabaseProxy;
import software.amazon.awscdk.services.rds.DatabaseProxyOptions;
import software.amazon.awscdk.services.rds.IClusterEngine;
import software.amazon.awscdk.services.rds.IClusterInstance;
import software.amazon.awscdk.services.rds.ServerlessV2ClusterInstanceProps;
import software.amazon.awscdk.services.rds.SnapshotCredentials;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * The PostgreSQL metastore: Aurora PostgreSQL Serverless v2, reached through RDS Proxy with IAM
 * auth and TLS required (standard, with a reader in a second availability zone as the failover
 * target), or over the RDS Data API from outside the VPC, pausing at 0 ACU when idle (lean). Kept
 * {@code backupRetentionDays} of point-in-time backups; optionally restored from a snapshot. Knows
 * the environment variables that point a function at it and the permissions a function needs to use
 * it, and nothing more.
 */
final class Metastore extends Construct {
  /** The database and its login: the cluster's generated secret, which the proxy also uses. */
  static final String DATABASE = "puddle";

  static final String USER = "puddle";

  private final DatabaseClusterBase cluster;
  private final DatabaseProxy proxy;

  Metastore(Construct scope, String id, Settings settings, Network network) {
    super(scope, id);
    IVpc vpc = network.vpc();
    AuroraPostgresEngineVersion version =
        settings.auroraVersion() == 16
            ? AuroraPostgresEngineVersion.VER_16_11
            : AuroraPostgresEngineVersion.VER_17_7;
    List<ISubnet> subnets = privateSubnets(vpc);
    SubnetSelection placement = SubnetSelection.builder().subnets(subnets).build();
    IClusterEngine engine =
        DatabaseClusterEngine.auroraPostgres(
            AuroraPostgresClusterEngineProps.builder().version(version).build());
    IClusterInstance writer = instance("Writer", settings, subnets, 0);
    List<IClusterInstance> readers = new ArrayList<>();
    for (int i = 1; i <= settings.auroraReaders(); i++) {
      readers.add(instance("Reader" + i, settings, subnets, i));
    }
    BackupProps backup =
        BackupProps.builder().retention(Duration.days(settings.backupRetentionDays())).build();
    if (settings.restoreSnapshot() == null) {
      DatabaseCluster.Builder builder =
          DatabaseCluster.Builder.create(this, "Cluster")
              .engine(engine)
              .vpc(vpc)
              .vpcSubnets(placement)
              .credentials(Credentials.fromGeneratedSecret(USER))
              .defaultDatabaseName(DATABASE)
              .writer(writer)
              .readers(readers)
              .serverlessV2MinCapacity(settings.minAcu())
              .serverlessV2MaxCapacity(settings.maxAcu())
              .storageEncrypted(true)
              .iamAuthentication(true)
              .backup(backup)
              .deletionProtection(settings.deletionProtection())
              .removalPolicy(RemovalPolicy.SNAPSHOT);
      if (settings.lean()) {
        builder
            .enableDataApi(true)
            .serverlessV2AutoPauseDuration(Duration.minutes(settings.autoPauseMinutes()));
      }
      cluster = builder.build();
    } else {
      // docs/operations.md, "Backup and restore": a cluster restored from a snapshot (of a
      // point-in-time restore, or an automated or manual one) replaces the cluster above; the
      // login gets a new generated password, as the snapshot's is not known to the stack. Without
      // the flag, the construct would also generate a second, unused secret for the login.
      getNode().setContext("@aws-cdk/aws-rds:preventRenderingDeprecatedCredentials", true);
      DatabaseClusterFromSnapshot.Builder builder =
          DatabaseClusterFromSnapshot.Builder.create(this, "Cluster")
              .snapshotIdentifier(settings.restoreSnapshot())
              .snapshotCredentials(SnapshotCredentials.fromGeneratedSecret(USER))
              .engine(engine)
              .vpc(vpc)
              .vpcSubnets(placement)
              .writer(writer)
              .readers(readers)
              .serverlessV2MinCapacity(settings.minAcu())
              .serverlessV2MaxCapacity(settings.maxAcu())
              .storageEncrypted(true)
              .iamAuthentication(true)
              .backup(backup)
              .deletionProtection(settings.deletionProtection())
              .removalPolicy(RemovalPolicy.SNAPSHOT);
      if (settings.lean()) {
        builder
            .enableDataApi(true)
            .serverlessV2AutoPauseDuration(Duration.minutes(settings.autoPauseMinutes()));
      }
      cluster = builder.build();
    }

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
  private static List<ISubnet> privateSubnets(IVpc vpc) {
    return vpc.getPrivateSubnets().isEmpty() ? vpc.getIsolatedSubnets() : vpc.getPrivateSubnets();
  }

  /**
   * The writer (index 0) or a reader, each in the next subnet's availability zone, so that the
   * first reader, the failover target, is in another zone than the writer. Readers scale with the
   * writer (promotion tier 0 or 1): a promoted reader has the capacity the writer had.
   */
  private static IClusterInstance instance(
      String id, Settings settings, List<ISubnet> subnets, int index) {
    ServerlessV2ClusterInstanceProps.Builder props =
        ServerlessV2ClusterInstanceProps.builder()
            .publiclyAccessible(false)
            .autoMinorVersionUpgrade(true);
    if (settings.auroraReaders() > 0) {
      props.availabilityZone(subnets.get(index % subnets.size()).getAvailabilityZone());
    }
    if (index > 0) {
      props.scaleWithWriter(true);
    }
    return ClusterInstance.serverlessV2(id, props.build());
  }

  DatabaseClusterBase cluster() {
    return cluster;
  }

  /** The proxy; null in the lean profile. */
  DatabaseProxy proxy() {
    return proxy;
  }

  /**
   * The secrets the cluster construct generates (for cdk-nag's suppressions): {@code Secret}, and
   * for a cluster restored from a snapshot also {@code SnapshotSecret}, the login's new password.
   */
  List<IConstruct> secrets() {
    return java.util.stream.Stream.of("Secret", "SnapshotSecret")
        .map(name -> cluster.getNode().tryFindChild(name))
        .filter(java.util.Objects::nonNull)
        .toList();
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
