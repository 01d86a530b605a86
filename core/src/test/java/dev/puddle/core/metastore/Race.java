package dev.puddle.core.metastore;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/** Runs tasks at the same moment, each on its own thread, and collects what each gave or threw. */
public final class Race {
  private Race() {}

  /** The outcome of one task: its result, or what it threw. */
  public record Outcome<T>(T result, Throwable failure) {}

  public static <T> List<Outcome<T>> run(int tasks, IntFunction<T> task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(tasks);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<Outcome<T>>> futures = new ArrayList<>();
      for (int i = 0; i < tasks; i++) {
        int index = i;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  try {
                    return new Outcome<>(task.apply(index), null);
                  } catch (RuntimeException e) {
                    return new Outcome<T>(null, e);
                  }
                }));
      }
      start.countDown();
      List<Outcome<T>> outcomes = new ArrayList<>();
      for (Future<Outcome<T>> future : futures) {
        outcomes.add(future.get());
      }
      return outcomes;
    } finally {
      pool.shutdownNow();
    }
  }
}
