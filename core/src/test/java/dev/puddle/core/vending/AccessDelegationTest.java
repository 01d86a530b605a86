package dev.puddle.core.vending;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.contract.Route;
import dev.puddle.core.api.Request;
import java.util.Map;
import org.apache.iceberg.exceptions.BadRequestException;
import org.junit.jupiter.api.Test;

class AccessDelegationTest {
  @Test
  void vendedCredentialsAreAskedForAloneOrAmongOtherModes() {
    assertThat(AccessDelegation.vendedCredentialsRequested(withHeader("vended-credentials")))
        .isTrue();
    assertThat(
            AccessDelegation.vendedCredentialsRequested(
                withHeader("remote-signing, Vended-Credentials")))
        .isTrue();
    // what clients sent before the specification named the modes
    assertThat(AccessDelegation.vendedCredentialsRequested(withHeader("true"))).isTrue();
  }

  @Test
  void noHeaderOrAnEmptyOneAsksForNothing() {
    assertThat(AccessDelegation.vendedCredentialsRequested(withHeaders(Map.of()))).isFalse();
    assertThat(AccessDelegation.vendedCredentialsRequested(withHeader(" "))).isFalse();
  }

  @Test
  void onlyModesPuddleDoesNotServeAreABadRequest() {
    assertThatThrownBy(
            () -> AccessDelegation.vendedCredentialsRequested(withHeader("remote-signing")))
        .isInstanceOf(BadRequestException.class)
        .hasMessage("Unsupported access delegation mode: remote-signing");
  }

  private static Request withHeader(String value) {
    return withHeaders(Map.of("x-iceberg-access-delegation", value));
  }

  private static Request withHeaders(Map<String, String> headers) {
    return new Request(Route.LOAD_TABLE, Map.of(), Map.of(), headers, null);
  }
}
