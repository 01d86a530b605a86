package dev.puddle.core.vending;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.puddle.contract.Route;
import dev.puddle.core.api.Request;
import dev.puddle.core.vending.AccessDelegation.Mode;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.exceptions.BadRequestException;
import org.junit.jupiter.api.Test;

class AccessDelegationTest {
  private static final Set<Mode> BOTH = EnumSet.allOf(Mode.class);

  @Test
  void vendedCredentialsAreAskedForAloneOrAmongOtherModes() {
    assertThat(AccessDelegation.requested(withHeader("vended-credentials"), BOTH))
        .contains(Mode.VENDED_CREDENTIALS);
    assertThat(AccessDelegation.requested(withHeader("remote-signing, Vended-Credentials"), BOTH))
        .contains(Mode.VENDED_CREDENTIALS);
    // what clients sent before the specification named the modes
    assertThat(AccessDelegation.requested(withHeader("true"), BOTH))
        .contains(Mode.VENDED_CREDENTIALS);
  }

  @Test
  void remoteSigningIsServedWhereAskedForAndNoCredentialsAreVended() {
    assertThat(AccessDelegation.requested(withHeader("remote-signing"), BOTH))
        .contains(Mode.REMOTE_SIGNING);
    assertThat(
            AccessDelegation.requested(
                withHeader("vended-credentials,remote-signing"), Set.of(Mode.REMOTE_SIGNING)))
        .contains(Mode.REMOTE_SIGNING);
  }

  @Test
  void noHeaderOrAnEmptyOneAsksForNothing() {
    assertThat(AccessDelegation.requested(withHeaders(Map.of()), BOTH)).isEmpty();
    assertThat(AccessDelegation.requested(withHeader(" "), BOTH)).isEmpty();
  }

  @Test
  void vendedCredentialsWhereNoneAreVendedAreAnsweredWithout() {
    assertThat(AccessDelegation.requested(withHeader("vended-credentials"), Set.of()))
        .isEqualTo(Optional.empty());
  }

  @Test
  void onlyModesPuddleDoesNotServeAreABadRequest() {
    assertThatThrownBy(() -> AccessDelegation.requested(withHeader("s3-presigning"), BOTH))
        .isInstanceOf(BadRequestException.class)
        .hasMessage("Unsupported access delegation mode: s3-presigning");
    assertThatThrownBy(
            () ->
                AccessDelegation.requested(
                    withHeader("remote-signing"), Set.of(Mode.VENDED_CREDENTIALS)))
        .isInstanceOf(BadRequestException.class)
        .hasMessage("This catalog does not sign requests: remote-signing");
  }

  private static Request withHeader(String value) {
    return withHeaders(Map.of("x-iceberg-access-delegation", value));
  }

  private static Request withHeaders(Map<String, String> headers) {
    return new Request(Route.LOAD_TABLE, Map.of(), Map.of(), headers, null);
  }
}
