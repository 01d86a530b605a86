package dev.puddle.cdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.services.s3.Bucket;

/**
 * The cdk-nag checks the other tests find clean do run, and the stack's suppressions are narrow: a
 * bucket added without encryption, TLS policy or access logs is reported, and nothing else.
 */
class NagChecksTest {
  @Test
  void aResourceOutsideTheSuppressionsIsReported() {
    Synthesized s =
        Synthesized.of(Map.of("profile", "lean"), stack -> new Bucket(stack, "Careless"));

    assertThat(s.nagErrors)
        .isNotEmpty()
        .allSatisfy(m -> assertThat(m.getId()).startsWith("/Puddle/Careless/"));
    assertThat(s.nagErrors)
        .anySatisfy(
            m -> assertThat(m.getEntry().getData().toString()).contains("AwsSolutions-S10"));
  }
}
