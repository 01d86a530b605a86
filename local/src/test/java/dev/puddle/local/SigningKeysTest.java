package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.metastore.SigningKeys;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The published signing keys mirror the issuer's key set, over JDBC and over the RDS Data API: new
 * keys are added, a key id reused for other key material is replaced, keys gone from the set are
 * withdrawn.
 */
class SigningKeysTest {
  @ParameterizedTest
  @EnumSource(TestTwin.Mode.class)
  void publishingMirrorsTheKeySet(TestTwin.Mode mode) {
    SigningKeys keys = new SigningKeys(TestTwin.of(mode).local().database());
    String first = "k1-" + UUID.randomUUID();
    String second = "k2-" + UUID.randomUUID();

    keys.publish(Map.of(first, "{\"kid\":\"" + first + "\",\"v\":1}"));
    assertThat(keys.published())
        .containsExactly(Map.entry(first, "{\"kid\":\"" + first + "\",\"v\":1}"));

    Map<String, String> both = new LinkedHashMap<>();
    both.put(first, "{\"kid\":\"" + first + "\",\"v\":2}");
    both.put(second, "{\"kid\":\"" + second + "\"}");
    keys.publish(both);
    assertThat(keys.published()).isEqualTo(both);

    keys.publish(Map.of(second, both.get(second)));
    assertThat(keys.published()).containsOnlyKeys(second);
  }
}
