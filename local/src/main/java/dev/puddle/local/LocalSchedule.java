package dev.puddle.local;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The twin's stand-in for an EventBridge schedule rule: invokes a scheduled function's handler at a
 * fixed interval with the event EventBridge sends, as the stack's rules invoke the sweeps.
 */
final class LocalSchedule {
  private static final Logger LOG = LoggerFactory.getLogger(LocalSchedule.class);
  private static final String SCHEDULED_EVENT =
      "{\"source\":\"aws.events\",\"detail-type\":\"Scheduled Event\",\"detail\":{}}";

  private LocalSchedule() {}

  /**
   * Invokes {@code handler} every {@code interval}, the first time one interval from now, on a
   * daemon thread named {@code name}, each invocation given {@code timeout} as its time limit. Shut
   * the returned executor down to stop.
   */
  static ScheduledExecutorService every(
      String name, Duration interval, RequestStreamHandler handler, Duration timeout) {
    ScheduledExecutorService schedule =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, name);
              thread.setDaemon(true);
              return thread;
            });
    long every = interval.toMillis();
    schedule.scheduleWithFixedDelay(
        () -> invoke(name, handler, timeout), every, every, TimeUnit.MILLISECONDS);
    return schedule;
  }

  private static void invoke(String name, RequestStreamHandler handler, Duration timeout) {
    try {
      ByteArrayOutputStream output = new ByteArrayOutputStream();
      handler.handleRequest(
          new ByteArrayInputStream(SCHEDULED_EVENT.getBytes(StandardCharsets.UTF_8)),
          output,
          new LocalContext(UUID.randomUUID().toString(), timeout));
      LOG.debug("{}: {}", name, output.toString(StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      LOG.warn("{} failed", name, e);
    }
  }
}
