package dev.puddle.cdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Context parameters: defaults per profile, and malformed values named in the error. */
class SettingsTest {
  @Test
  void theLeanProfileIsTheDefaultAndPausesAtZero() {
    Settings settings = Settings.from(Map.<String, Object>of()::get);

    assertThat(settings.profile()).isEqualTo(Settings.Profile.LEAN);
    assertThat(settings.minAcu()).isZero();
    assertThat(settings.runtime()).isEqualTo("java25");
    assertThat(settings.memory()).containsEntry(Group.READ, 1024);
  }

  @Test
  void theStandardProfileKeepsHalfAnAcu() {
    Settings settings = Settings.from(Map.<String, Object>of("profile", "standard")::get);

    assertThat(settings.minAcu()).isEqualTo(0.5);
    assertThat(settings.egress()).isEqualTo(Settings.Egress.ENDPOINTS);
  }

  @Test
  void cdkJsonValuesMayBeNumbersAndBooleans() {
    Settings settings =
        Settings.from(
            Map.<String, Object>of("maxAcu", 8, "deletionProtection", false, "memory.write", 3008)
                ::get);

    assertThat(settings.maxAcu()).isEqualTo(8);
    assertThat(settings.deletionProtection()).isFalse();
    assertThat(settings.memory()).containsEntry(Group.WRITE, 3008);
  }

  @Test
  void malformedValuesNameTheirParameter() {
    assertThatThrownBy(() -> Settings.from(Map.<String, Object>of("profile", "cheap")::get))
        .hasMessageContaining("profile")
        .hasMessageContaining("[standard, lean]");
    assertThatThrownBy(() -> Settings.from(Map.<String, Object>of("runtime", "java17")::get))
        .hasMessageContaining("runtime");
    assertThatThrownBy(() -> Settings.from(Map.<String, Object>of("auroraVersion", "15")::get))
        .hasMessageContaining("auroraVersion");
    assertThatThrownBy(
            () -> Settings.from(Map.<String, Object>of("reservedConcurrency.read", "lots")::get))
        .hasMessageContaining("reservedConcurrency.read");
    assertThatThrownBy(() -> Settings.from(Map.<String, Object>of("keepAliveDays", "14")::get))
        .hasMessageContaining("keepAliveDays must be from 1 to 13");
    assertThatThrownBy(() -> Settings.from(Map.<String, Object>of("purgeMaxConcurrency", "1")::get))
        .hasMessageContaining("purgeMaxConcurrency");
  }

  @Test
  void anExternalIdpNeedsItsKeysOverHttpsAndAnAudience() {
    Map<String, Object> idp =
        Map.of(
            "jwtIssuer", "https://idp.example.com/",
            "jwtJwksUri", "https://idp.example.com/keys",
            "jwtAudience", "puddle");
    ExternalIdp parsed = Settings.from(idp::get).externalIdp();
    assertThat(parsed)
        .isEqualTo(
            new ExternalIdp(
                "https://idp.example.com/",
                "https://idp.example.com/keys",
                List.of("puddle"),
                "sub"));
    assertThat(Settings.from(Map.<String, Object>of()::get).externalIdp()).isNull();

    assertThatThrownBy(() -> Settings.from(without(idp, "jwtJwksUri")::get))
        .hasMessage("Context jwtJwksUri is required with jwtIssuer");
    assertThatThrownBy(() -> Settings.from(without(idp, "jwtAudience")::get))
        .hasMessage("Context jwtAudience is required with jwtIssuer");
    assertThatThrownBy(() -> Settings.from(with(idp, "jwtJwksUri", "http://idp/keys")::get))
        .hasMessage("Context jwtJwksUri must be an https URL: http://idp/keys");
    assertThatThrownBy(() -> Settings.from(without(idp, "jwtIssuer")::get))
        .hasMessageContaining("needs jwtIssuer");
  }

  private static Map<String, Object> without(Map<String, Object> context, String name) {
    Map<String, Object> copy = new HashMap<>(context);
    copy.remove(name);
    return copy;
  }

  private static Map<String, Object> with(Map<String, Object> context, String name, String value) {
    Map<String, Object> copy = new HashMap<>(context);
    copy.put(name, value);
    return copy;
  }
}
