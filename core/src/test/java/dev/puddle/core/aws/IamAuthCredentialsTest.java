package dev.puddle.core.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.metastore.DatabaseCredentials;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * Protects the RDS IAM auth token: the presigned {@code rds-db:connect} URL without its scheme, as
 * {@code aws rds generate-db-auth-token} prints it, reused while fresh and made anew after a
 * refusal or a SnapStart restore, which also drops the credentials provider.
 */
class IamAuthCredentialsTest {
  private final AtomicInteger providers = new AtomicInteger();
  private final IamAuthCredentials credentials =
      new IamAuthCredentials(
          "proxy.example.eu-west-1.rds.amazonaws.com", 5432, "puddle", "eu-west-1", this::provider);

  private AwsCredentialsProvider provider() {
    providers.incrementAndGet();
    return StaticCredentialsProvider.create(
        AwsBasicCredentials.create("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"));
  }

  @Test
  void theTokenIsAPresignedConnectRequestWithoutScheme() {
    String token = credentials.current().password();

    assertThat(token)
        .startsWith("proxy.example.eu-west-1.rds.amazonaws.com:5432/?")
        .contains("Action=connect")
        .contains("DBUser=puddle")
        .contains("X-Amz-Algorithm=AWS4-HMAC-SHA256")
        .containsPattern(
            "X-Amz-Credential=AKIDEXAMPLE%2F\\d{8}%2Feu-west-1%2Frds-db%2Faws4_request")
        .contains("X-Amz-Expires=900")
        .contains("X-Amz-SignedHeaders=host")
        .containsPattern("X-Amz-Signature=[0-9a-f]{64}");
    assertThat(credentials.current().user()).isEqualTo("puddle");
  }

  @Test
  void aTokenIsReusedUntilRefusedAndForgottenOnRestore() {
    DatabaseCredentials.Login first = credentials.current();

    assertThat(credentials.current()).isSameAs(first);
    DatabaseCredentials.Login refreshed = credentials.refreshed();
    assertThat(refreshed).isNotSameAs(first);
    assertThat(credentials.current()).isSameAs(refreshed);
    assertThat(providers).hasValue(1);

    credentials.forget();
    credentials.current();

    assertThat(providers).hasValue(2);
  }

  @Test
  void aLoginNeverPrintsItsPassword() {
    assertThat(credentials.current().toString()).doesNotContain("X-Amz-Signature");
  }
}
