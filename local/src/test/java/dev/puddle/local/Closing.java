package dev.puddle.local;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a test opens (catalog clients, endpoints), closed after it, the newest first. Register it
 * with {@code @RegisterExtension}; it closes after the test's own {@code @AfterEach} methods.
 */
final class Closing implements AfterEachCallback {
  private final List<AutoCloseable> resources = new ArrayList<>();

  /** Closes {@code resource} after the test; returns it. */
  <T extends AutoCloseable> T add(T resource) {
    resources.add(resource);
    return resource;
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    Exception failed = null;
    for (AutoCloseable resource : resources.reversed()) {
      try {
        resource.close();
      } catch (Exception e) {
        if (failed == null) {
          failed = e;
        } else {
          failed.addSuppressed(e);
        }
      }
    }
    resources.clear();
    if (failed != null) {
      throw failed;
    }
  }
}
