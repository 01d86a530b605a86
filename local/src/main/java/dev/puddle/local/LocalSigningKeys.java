package dev.puddle.local;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import dev.puddle.core.auth.KeySetSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.text.ParseException;
import java.util.UUID;

/**
 * The twin's stand-in for the token signing secret: a private JWK set in a file of its data
 * directory, generated (one P-256 key) on first start and read on every later one, so tokens the
 * twin issued stay valid across restarts. Readable by its owner only.
 */
final class LocalSigningKeys implements KeySetSource {
  static final String FILE = "token-signing-keys.json";

  private final Path file;

  private LocalSigningKeys(Path file) {
    this.file = file;
  }

  /** The key set in {@code dataDirectory}, generated there if it has none yet. */
  static LocalSigningKeys in(Path dataDirectory) throws IOException {
    Path file = dataDirectory.resolve(FILE);
    if (!Files.exists(file)) {
      Files.createDirectories(dataDirectory);
      Path temporary = Files.createTempFile(dataDirectory, FILE, ".tmp");
      try {
        Files.setPosixFilePermissions(temporary, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // not a POSIX file system: the data directory's own permissions protect it
      }
      Files.writeString(temporary, generate().toString(false), StandardCharsets.UTF_8);
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
    }
    return new LocalSigningKeys(file);
  }

  @Override
  public JWKSet load() throws IOException {
    try {
      return JWKSet.load(file.toFile());
    } catch (ParseException e) {
      throw new IOException(file + " is not a JWK set");
    }
  }

  private static JWKSet generate() {
    try {
      return new JWKSet(
          new ECKeyGenerator(Curve.P_256).keyID("local-" + UUID.randomUUID()).generate());
    } catch (JOSEException e) {
      throw new IllegalStateException("Cannot generate a P-256 key", e);
    }
  }
}
