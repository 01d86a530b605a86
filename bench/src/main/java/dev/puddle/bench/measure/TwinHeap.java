package dev.puddle.bench.measure;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServerConnection;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The twin's own heap while it does one thing, read over its JMX connector: the planning worker
 * runs in the twin's JVM (it polls the planning queue into the planning handler as Lambda's event
 * source mapping would), so the twin's heap is the worker's heap plus the catalog's, which is idle
 * while the client waits for a submitted plan.
 *
 * <p>{@link #watch} first collects the twin's garbage and notes what is left (the baseline: the
 * catalog's and the worker's resting heap), then while the action runs records what every garbage
 * collection leaves live (each collection's heap after, from the JVM's own notifications: the
 * retained set, what a function's memory must hold) and samples the heap's occupancy, garbage
 * included, every {@value #SAMPLE_MILLIS} ms.
 */
public final class TwinHeap implements AutoCloseable {
  private static final long SAMPLE_MILLIS = 20;
  private static final double MB = 1024.0 * 1024.0;

  /**
   * What the heap held around one action, in bytes.
   *
   * @param baseline live after a full collection just before the action
   * @param maxLiveAfterGc the most any collection during the action left live
   * @param peakOccupancy the most the heap held at a sample, garbage included
   * @param collections the collections during the action
   * @param maxHeap the twin's maximum heap
   */
  public record Peak(
      long baseline, long maxLiveAfterGc, long peakOccupancy, int collections, long maxHeap) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%.0f MB live before, at most %.0f MB live after any of %d collections during it"
              + " (+%.0f MB), at most %.0f MB occupied, garbage included; max heap %.0f MB",
          baseline / MB,
          maxLiveAfterGc / MB,
          collections,
          Math.max(0, maxLiveAfterGc - baseline) / MB,
          peakOccupancy / MB,
          maxHeap / MB);
    }
  }

  private final JMXConnector connector;
  private final MBeanServerConnection connection;
  private final MemoryMXBean memory;
  private final Set<String> heapPools;

  private TwinHeap(JMXConnector connector) throws IOException {
    this.connector = connector;
    this.connection = connector.getMBeanServerConnection();
    this.memory =
        ManagementFactory.newPlatformMXBeanProxy(
            connection, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
    this.heapPools =
        Set.copyOf(
            ManagementFactory.getPlatformMXBeans(connection, MemoryPoolMXBean.class).stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP)
                .map(MemoryPoolMXBean::getName)
                .toList());
  }

  /** Connects to a JVM's JMX connector, e.g. {@code PuddleTwin.jmxUrl()}. */
  public static TwinHeap connect(String url) {
    try {
      return new TwinHeap(JMXConnectorFactory.connect(new JMXServiceURL(url)));
    } catch (IOException e) {
      throw new UncheckedIOException("No JMX connector at " + url, e);
    }
  }

  /** Runs {@code action} and returns what the twin's heap held meanwhile. */
  public Peak watch(Runnable action) {
    memory.gc();
    long baseline = memory.getHeapMemoryUsage().getUsed();
    AtomicLong maxLive = new AtomicLong(baseline);
    AtomicInteger collections = new AtomicInteger();
    NotificationListener listener =
        (Notification notification, Object handback) -> {
          if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
              notification.getType())) {
            return;
          }
          GarbageCollectionNotificationInfo info =
              GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
          long live =
              info.getGcInfo().getMemoryUsageAfterGc().entrySet().stream()
                  .filter(pool -> heapPools.contains(pool.getKey()))
                  .mapToLong(pool -> pool.getValue().getUsed())
                  .sum();
          collections.incrementAndGet();
          maxLive.accumulateAndGet(live, Math::max);
        };
    List<ObjectName> collectors = new ArrayList<>();
    AtomicLong peak = new AtomicLong(baseline);
    ScheduledExecutorService sampler =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "twin-heap-sampler");
              thread.setDaemon(true);
              return thread;
            });
    try {
      for (ObjectName name :
          connection.queryNames(
              new ObjectName(ManagementFactory.GARBAGE_COLLECTOR_MXBEAN_DOMAIN_TYPE + ",*"),
              null)) {
        connection.addNotificationListener(name, listener, null, null);
        collectors.add(name);
      }
      sampler.scheduleAtFixedRate(
          () -> peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max),
          0,
          SAMPLE_MILLIS,
          TimeUnit.MILLISECONDS);
      action.run();
    } catch (IOException | javax.management.JMException e) {
      throw new IllegalStateException("Could not watch the twin's heap", e);
    } finally {
      sampler.shutdownNow();
      for (ObjectName name : collectors) {
        try {
          connection.removeNotificationListener(name, listener);
        } catch (IOException | javax.management.JMException e) {
          // the connector goes with close()
        }
      }
    }
    MemoryUsage heap = memory.getHeapMemoryUsage();
    peak.accumulateAndGet(heap.getUsed(), Math::max);
    return new Peak(baseline, maxLive.get(), peak.get(), collections.get(), heap.getMax());
  }

  @Override
  public void close() {
    try {
      connector.close();
    } catch (IOException e) {
      // nothing left to release
    }
  }
}
