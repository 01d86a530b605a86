package dev.puddle.engines.rck;

import dev.puddle.engines.twin.PuddleTwin;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Starts the local twin, as a black box in a process of its own, before Iceberg's REST
 * Compatibility Kit runs, and hands the kit only what an engine is given: the catalog's URI, a
 * credential (root's) and the warehouse, as the system properties the kit reads its catalog
 * configuration from. Stops the twin when the test session ends.
 *
 * <p>The twin runs in the metastore mode {@code -Dpuddle.twin.metastore} names ({@code jdbc}, the
 * default, or {@code data-api}): the module's pom runs the kit once per mode, each run in a JVM of
 * its own against a twin of its own.
 */
public final class TwinSession implements LauncherSessionListener {
  private PuddleTwin twin;

  @Override
  public void launcherSessionOpened(LauncherSession session) {
    PuddleTwin.Metastore metastore =
        PuddleTwin.Metastore.of(System.getProperty("puddle.twin.metastore", "jdbc"));
    System.out.println("Iceberg's REST Compatibility Kit against a twin in " + metastore.option());
    twin = PuddleTwin.start(metastore);
    System.setProperty("uri", twin.uri());
    System.setProperty("credential", twin.rootCredential());
    System.setProperty("oauth2-server-uri", twin.tokenEndpoint());
    System.setProperty("scope", "PRINCIPAL_ROLE:ALL");
    System.setProperty("warehouse", "default");
  }

  @Override
  public void launcherSessionClosed(LauncherSession session) {
    if (twin != null) {
      twin.close();
    }
  }
}
