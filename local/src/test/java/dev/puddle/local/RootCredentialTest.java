package dev.puddle.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.puddle.core.access.PrincipalCredential;
import dev.puddle.core.auth.ClientCredentials.PrincipalRef;
import dev.puddle.core.metastore.access.Principals;
import dev.puddle.core.metastore.access.RealmBootstrap;
import dev.puddle.core.metastore.access.RealmBootstrap.Outcome;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The twin's root credential across restarts on one data directory: generated and shown on the
 * first start only, kept by later starts, and replaced by a {@code --root-credential} that differs
 * from it. Runs its own twins, since it stops them.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RootCredentialTest {
  private static final PrincipalRef ROOT = new PrincipalRef(LocalTwin.REALM, Principals.ROOT);

  @TempDir Path data;

  private PrincipalCredential generated;

  @Test
  void generatedOnceKeptOnRestartAndRotatedByADifferentOne() {
    PrincipalCredential given = new PrincipalCredential("local-root", "a-secret-we-chose");

    Started first = start(null, given);
    Started restarted = start(null, given);
    Started rotated = start(given, given);
    Started again = start(given, given);

    assertThat(first.result().outcome()).isEqualTo(Outcome.CREATED);
    assertThat(first.result().generatedSecret()).isNotBlank();
    assertThat(first.generatedVerifies()).contains(ROOT);
    assertThat(first.givenVerifies()).isEmpty();
    assertThat(restarted.result().outcome()).isEqualTo(Outcome.UNCHANGED);
    assertThat(restarted.result().clientId()).isEqualTo(first.result().clientId());
    assertThat(restarted.result().generatedSecret()).isNull();
    assertThat(restarted.generatedVerifies()).contains(ROOT);
    assertThat(rotated.result().outcome()).isEqualTo(Outcome.ROTATED);
    assertThat(rotated.generatedVerifies()).isEmpty();
    assertThat(rotated.givenVerifies()).contains(ROOT);
    assertThat(again.result().outcome()).isEqualTo(Outcome.UNCHANGED);
    assertThat(again.givenVerifies()).contains(ROOT);
  }

  /**
   * What one start did, and whom the first start's generated credential and the given one verify as
   * while the twin runs.
   */
  private record Started(
      RealmBootstrap.Result result,
      Optional<PrincipalRef> generatedVerifies,
      Optional<PrincipalRef> givenVerifies) {}

  /** Starts a twin on the data directory with {@code credential}, checks, and stops it. */
  private Started start(PrincipalCredential credential, PrincipalCredential given) {
    try (LocalTwin twin =
        LocalTwin.start(
            new LocalTwin.Options(
                data, "127.0.0.1", 0, 0, 0, 0, LocalPurge.Options.DEFAULTS, credential))) {
      RealmBootstrap.Result result = twin.root();
      if (generated == null) {
        generated = new PrincipalCredential(result.clientId(), result.generatedSecret());
      }
      Principals principals = new Principals(twin.database());
      return new Started(
          result,
          principals.verify(generated.clientId(), generated.clientSecret()),
          principals.verify(given.clientId(), given.clientSecret()));
    }
  }
}
