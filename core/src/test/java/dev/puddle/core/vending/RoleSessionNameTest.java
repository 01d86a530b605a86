package dev.puddle.core.vending;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.auth.Caller;
import org.junit.jupiter.api.Test;

class RoleSessionNameTest {
  @Test
  void namesRealmAndPrincipal() {
    assertThat(RoleSessionName.of(Caller.withAllRoles("acme", "spark-etl@acme.com")))
        .isEqualTo("puddle@acme@spark-etl@acme.com");
  }

  @Test
  void replacesWhatStsRefusesAndKeepsToSixtyFourCharacters() {
    String name =
        RoleSessionName.of(Caller.withAllRoles("tenant one", "service/äöü:" + "x".repeat(80)));

    assertThat(name)
        .hasSize(64)
        .matches("[\\w+=,.@-]{2,64}")
        .startsWith("puddle@tenant_one@service_____xxx");
  }
}
