package dev.puddle.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.core.aws.S3Objects;
import dev.puddle.core.aws.SecretsManagerCredentials;
import dev.puddle.core.aws.SqsPurgeQueue;
import dev.puddle.core.metastore.DatabaseCredentials.Login;
import dev.puddle.core.purge.JobKind;
import dev.puddle.core.purge.PurgeMessage;
import dev.puddle.core.storage.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.io.InputFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.MountableFile;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * Puddle's AWS paths against LocalStack, set up by the same init hook as docker-compose.yml:
 * metadata files written and read through Iceberg's S3FileIO and purged with {@code DeleteObjects}
 * ({@link Storage}, {@link S3Objects}), purge messages sent to the purge queue ({@link
 * SqsPurgeQueue}), and the database login read from Secrets Manager and re-read after a rotation
 * ({@link SecretsManagerCredentials}). Skipped where no Docker engine runs.
 */
@Tag("localstack")
@Testcontainers(disabledWithoutDocker = true)
class LocalStackTest {
  private static final String BUCKET = "puddle-warehouse";

  @Container private static final LocalStackContainer LOCALSTACK = localStack();

  private static Storage storage;
  private static S3Objects s3;
  private static SqsClient sqs;

  @BeforeAll
  static void clients() {
    storage =
        Storage.s3Compatible(
            LOCALSTACK.getEndpoint().toString(),
            LOCALSTACK.getRegion(),
            LOCALSTACK.getAccessKey(),
            LOCALSTACK.getSecretKey());
    s3 = new S3Objects(S3Objects.client(storage.clientProperties()));
    sqs =
        SqsPurgeQueue.client(
            LOCALSTACK.getEndpoint().toString(),
            LOCALSTACK.getRegion(),
            LOCALSTACK.getAccessKey(),
            LOCALSTACK.getSecretKey());
  }

  @AfterAll
  static void close() {
    s3.close();
    storage.close();
    sqs.close();
  }

  @Test
  void metadataFilesAreWrittenReadAndPurgedInBatches() throws IOException {
    String table = "sales/orders-" + UUID.randomUUID();
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String key = table + "/metadata/0000" + i + ".metadata.json";
      try (OutputStream out = storage.io().newOutputFile("s3://" + BUCKET + "/" + key).create()) {
        out.write(("{\"format-version\":2,\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8));
      }
      keys.add(key);
    }
    InputFile first = storage.io().newInputFile("s3://" + BUCKET + "/" + keys.get(0));
    try (InputStream in = first.newStream()) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).contains("\"n\":0");
    }

    assertThat(s3.list(BUCKET, table + "/", null).keys()).containsExactlyElementsOf(keys);
    List<String> withMissing = new ArrayList<>(keys);
    withMissing.add(table + "/metadata/already-gone.metadata.json");
    assertThat(s3.delete(BUCKET, withMissing)).isEqualTo(4);
    assertThat(s3.list(BUCKET, table + "/", null).keys()).isEmpty();
    assertThat(s3.delete(BUCKET, keys)).as("a repeated purge completes").isEqualTo(3);
  }

  @Test
  void purgeJobsReachThePurgeQueueWhichGivesUpToItsDeadLetterQueue() {
    String queueUrl = sqs.getQueueUrl(b -> b.queueName("puddle-purge")).queueUrl();
    UUID job = UUID.randomUUID();

    new SqsPurgeQueue(sqs, queueUrl).send(JobKind.PURGE, job, Duration.ZERO);

    List<Message> messages =
        sqs.receiveMessage(b -> b.queueUrl(queueUrl).waitTimeSeconds(10).maxNumberOfMessages(1))
            .messages();
    assertThat(messages)
        .singleElement()
        .satisfies(m -> assertThat(PurgeMessage.job(m.body())).isEqualTo(job));
    sqs.deleteMessage(b -> b.queueUrl(queueUrl).receiptHandle(messages.get(0).receiptHandle()));
    Map<QueueAttributeName, String> attributes =
        sqs.getQueueAttributes(
                b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.REDRIVE_POLICY))
            .attributes();
    assertThat(attributes.get(QueueAttributeName.REDRIVE_POLICY))
        .contains("puddle-purge-dlq")
        .contains("\"maxReceiveCount\":\"5\"");
  }

  @Test
  void theLoginIsReadFromSecretsManagerAndReadAgainAfterARotation() {
    try (SecretsManagerClient admin = secretsManager()) {
      SecretsManagerCredentials credentials =
          new SecretsManagerCredentials("puddle/database", LocalStackTest::secretsManager);

      Login before = credentials.current();
      admin.putSecretValue(
          b ->
              b.secretId("puddle/database")
                  .secretString("{\"username\":\"puddle\",\"password\":\"rotated\"}"));
      Login cached = credentials.current();
      Login refreshed = credentials.refreshed();
      credentials.forget();

      assertThat(before).isEqualTo(new Login("puddle", "puddle-local-secret"));
      assertThat(cached).as("cached until the database refuses it").isEqualTo(before);
      assertThat(refreshed).isEqualTo(new Login("puddle", "rotated"));
    }
  }

  @Test
  void aSecretThatIsNoLoginIsRefusedWithoutQuotingIt() {
    String value;
    try (SecretsManagerClient admin = secretsManager()) {
      value = admin.getSecretValue(b -> b.secretId("puddle/token-signing-key")).secretString();
    }
    SecretsManagerCredentials signingKey =
        new SecretsManagerCredentials("puddle/token-signing-key", LocalStackTest::secretsManager);

    assertThatThrownBy(signingKey::current)
        .hasMessageContaining("puddle/token-signing-key")
        .satisfies(
            e -> {
              assertThat(e.getMessage()).doesNotContain(value);
              assertThat(String.valueOf(e.getCause())).doesNotContain(value);
            });
  }

  private static SecretsManagerClient secretsManager() {
    return SecretsManagerClient.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .endpointOverride(LOCALSTACK.getEndpoint())
        .region(Region.of(LOCALSTACK.getRegion()))
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(LOCALSTACK.getAccessKey(), LOCALSTACK.getSecretKey())))
        .build();
  }

  /**
   * LocalStack 4.14.0, the last image that starts without an auth token, unless {@code
   * PUDDLE_LOCALSTACK_IMAGE} names another (then pass {@code LOCALSTACK_AUTH_TOKEN}).
   */
  private static LocalStackContainer localStack() {
    String image =
        System.getenv().getOrDefault("PUDDLE_LOCALSTACK_IMAGE", "localstack/localstack:4.14.0");
    LocalStackContainer container =
        new LocalStackContainer(image)
            .withServices("s3", "sqs", "secretsmanager")
            .withCopyFileToContainer(
                MountableFile.forHostPath(
                    Path.of(System.getProperty("puddle.localstack.init"), "10-puddle.sh"), 0755),
                "/etc/localstack/init/ready.d/10-puddle.sh")
            // ready once the init hook has run, not just once LocalStack serves requests
            .waitingFor(
                Wait.forHttp("/_localstack/init/ready")
                    .forPort(4566)
                    .forResponsePredicate(
                        body ->
                            body.matches("(?s).*\"completed\":\\s*true.*")
                                && body.contains("SUCCESSFUL")));
    String token = System.getenv("LOCALSTACK_AUTH_TOKEN");
    if (token != null && !token.isBlank()) {
      container.withEnv("LOCALSTACK_AUTH_TOKEN", token);
    }
    return container;
  }
}
