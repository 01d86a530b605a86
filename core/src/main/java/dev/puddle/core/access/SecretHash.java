package dev.puddle.core.access;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A client secret as it is stored: PBKDF2-HMAC-SHA256 with a random salt, the algorithm and
 * iteration count kept beside the hash so that stronger parameters can be introduced without
 * invalidating stored secrets. Secrets themselves are never stored.
 */
public record SecretHash(String algorithm, int iterations, byte[] salt, byte[] hash) {
  /** The algorithm of new hashes. */
  public static final String PBKDF2_SHA256 = "PBKDF2WithHmacSHA256";

  /** Iterations of new hashes: OWASP's recommendation for PBKDF2-HMAC-SHA256 (2023). */
  public static final int ITERATIONS = 210_000;

  private static final int SALT_BYTES = 16;
  private static final int HASH_BITS = 256;

  /** Hashes {@code secret} with a new salt and the current parameters. */
  public static SecretHash of(String secret) {
    byte[] salt = random(SALT_BYTES);
    return new SecretHash(
        PBKDF2_SHA256, ITERATIONS, salt, derive(PBKDF2_SHA256, ITERATIONS, salt, secret));
  }

  /** Whether {@code secret} is the secret this hash was made from, compared in constant time. */
  public boolean matches(String secret) {
    return MessageDigest.isEqual(hash, derive(algorithm, iterations, salt, secret));
  }

  /** A random secret or identifier of {@code bytes} random bytes, in lower-case hex. */
  public static String randomHex(int bytes) {
    return HexFormat.of().formatHex(random(bytes));
  }

  /**
   * Random bytes from a generator made for the purpose: one kept in a static field would be
   * captured in a SnapStart snapshot and replay the same bytes in every restored environment.
   */
  private static byte[] random(int bytes) {
    byte[] random = new byte[bytes];
    new SecureRandom().nextBytes(random);
    return random;
  }

  private static byte[] derive(String algorithm, int iterations, byte[] salt, String secret) {
    char[] chars = secret.toCharArray();
    PBEKeySpec spec = new PBEKeySpec(chars, salt, iterations, HASH_BITS);
    try {
      return SecretKeyFactory.getInstance(algorithm).generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Cannot hash with " + algorithm, e);
    } finally {
      spec.clearPassword();
      Arrays.fill(chars, '\0');
    }
  }

  /** Never prints the hash or salt. */
  @Override
  public String toString() {
    return "SecretHash[" + algorithm + ", " + iterations + " iterations]";
  }
}
