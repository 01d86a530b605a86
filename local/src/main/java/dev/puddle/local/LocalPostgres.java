package dev.puddle.local;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server (binaries from Maven) on loopback, its data in a directory that survives
 * restarts and crashes.
 *
 * <p>One twin at a time uses a directory: it holds a lock file beside it while it runs. The server
 * is a process of its own, so it outlives a twin that is killed; the next start finds it through
 * its {@code postmaster.pid} and shuts it down cleanly before starting its own.
 */
public final class LocalPostgres implements AutoCloseable {
  /** How commits reach the disk. */
  public enum Durability {
    /**
     * fsync and synchronous commit on: a commit is acknowledged once its WAL is on disk, so it
     * survives a crash of the twin, of PostgreSQL or of the machine.
     */
    DURABLE,
    /**
     * fsync and synchronous commit off (the embedded library's defaults): faster commits, but a
     * crash can lose acknowledged ones and a machine crash can corrupt the cluster. For tests and
     * benchmarks whose data is thrown away.
     */
    FAST
  }

  private static final Logger LOG = LoggerFactory.getLogger(LocalPostgres.class);
  private static final Duration ORPHAN_SHUTDOWN = Duration.ofSeconds(60);

  private final EmbeddedPostgres postgres;
  private final FileChannel lockFile;
  private volatile boolean closing;

  private LocalPostgres(EmbeddedPostgres postgres, FileChannel lockFile) {
    this.postgres = postgres;
    this.lockFile = lockFile;
  }

  /** Starts PostgreSQL on {@code dataDirectory}, creating the cluster the first time. */
  public static LocalPostgres start(Path dataDirectory, int port, Durability durability) {
    FileChannel lockFile = lock(dataDirectory);
    try {
      stopOrphan(dataDirectory);
      String on = durability == Durability.DURABLE ? "on" : "off";
      EmbeddedPostgres.Builder builder =
          EmbeddedPostgres.builder()
              .setDataDirectory(dataDirectory)
              .setCleanDataDirectory(false)
              .setPGStartupWait(Duration.ofSeconds(60))
              .setServerConfig("listen_addresses", "127.0.0.1")
              .setServerConfig("max_connections", "100")
              // given after the library's -F, so they win over it
              .setServerConfig("fsync", on)
              .setServerConfig("synchronous_commit", on);
      if (port > 0) {
        builder.setPort(port);
      }
      LocalPostgres started = new LocalPostgres(builder.start(), lockFile);
      started.watch(dataDirectory);
      return started;
    } catch (IOException e) {
      release(lockFile);
      throw new UncheckedIOException("Cannot start PostgreSQL in " + dataDirectory, e);
    } catch (RuntimeException e) {
      release(lockFile);
      throw e;
    }
  }

  /**
   * Takes the lock that says a twin runs on this directory; fails at once if another one holds it.
   * The operating system releases it when the process ends, however it ends.
   */
  private static FileChannel lock(Path dataDirectory) {
    Path file = dataDirectory.resolveSibling(dataDirectory.getFileName() + ".lock");
    FileChannel channel = null;
    try {
      Files.createDirectories(dataDirectory.toAbsolutePath().getParent());
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = channel.tryLock();
      if (lock != null) {
        return channel;
      }
    } catch (OverlappingFileLockException e) {
      // held by this JVM
    } catch (IOException e) {
      release(channel);
      throw new UncheckedIOException("Cannot lock " + file, e);
    }
    release(channel);
    throw new IllegalStateException(
        "Another Puddle twin is running on "
            + dataDirectory.toAbsolutePath().getParent()
            + ": stop it first, or give this one another data directory");
  }

  /**
   * Shuts down a server that a killed twin left running on this directory, as {@code pg_ctl stop}
   * would in smart mode (its clients died with that twin): a clean shutdown, so the next start
   * needs no recovery. A {@code postmaster.pid} that names no live PostgreSQL of this directory is
   * left for PostgreSQL, which removes stale ones itself, unless its process id has since gone to
   * another program, which would keep PostgreSQL from starting.
   */
  private static void stopOrphan(Path dataDirectory) throws IOException {
    Path pidFile = dataDirectory.resolve("postmaster.pid");
    if (!Files.exists(pidFile)) {
      return;
    }
    List<String> lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
    Optional<ProcessHandle> process =
        lines.isEmpty() ? Optional.empty() : parsePid(lines.getFirst()).flatMap(ProcessHandle::of);
    if (process.isEmpty() || !process.get().isAlive()) {
      return;
    }
    ProcessHandle postmaster = process.get();
    if (!isPostgresOf(postmaster, dataDirectory)) {
      LOG.info("Removing {}: its process {} is no PostgreSQL", pidFile, postmaster.pid());
      Files.delete(pidFile);
      return;
    }
    LOG.warn(
        "PostgreSQL (pid {}) was left running on {} by a twin that did not stop: shutting it down",
        postmaster.pid(),
        dataDirectory);
    postmaster.destroy();
    try {
      postmaster.onExit().get(ORPHAN_SHUTDOWN.toSeconds(), TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "PostgreSQL (pid "
              + postmaster.pid()
              + ") left running on "
              + dataDirectory
              + " did not shut down within "
              + ORPHAN_SHUTDOWN.toSeconds()
              + " s; stop it, then start again");
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while PostgreSQL shut down", e);
    }
  }

  private static Optional<Long> parsePid(String line) {
    try {
      return Optional.of(Long.parseLong(line.trim()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether the process is a PostgreSQL server; where the system shows a process's working
   * directory (Linux), also that it serves this directory, since the server works in it.
   */
  private static boolean isPostgresOf(ProcessHandle process, Path dataDirectory) {
    boolean postgres =
        process
            .info()
            .command()
            .map(command -> Path.of(command).getFileName().toString().startsWith("postgres"))
            .orElse(false);
    Path cwd = Path.of("/proc", Long.toString(process.pid()), "cwd");
    if (!postgres || !Files.isSymbolicLink(cwd)) {
      return postgres;
    }
    try {
      return cwd.toRealPath().equals(dataDirectory.toRealPath());
    } catch (IOException e) {
      return false;
    }
  }

  /** Says so when the server ends while the twin still needs it: every request will fail. */
  private void watch(Path dataDirectory) throws IOException {
    List<String> lines =
        Files.readAllLines(dataDirectory.resolve("postmaster.pid"), StandardCharsets.UTF_8);
    parsePid(lines.getFirst())
        .flatMap(ProcessHandle::of)
        .ifPresent(
            postmaster ->
                postmaster
                    .onExit()
                    .thenRun(
                        () -> {
                          if (!closing) {
                            LOG.error(
                                "PostgreSQL (pid {}) has stopped: the catalog cannot answer;"
                                    + " restart the twin",
                                postmaster.pid());
                          }
                        }));
  }

  public String jdbcUrl() {
    return postgres.getJdbcUrl("postgres", "postgres");
  }

  public String user() {
    return "postgres";
  }

  /** Stops the server: a fast shutdown, so open transactions roll back and data is flushed. */
  @Override
  public void close() {
    closing = true;
    try {
      postgres.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      release(lockFile);
    }
  }

  private static void release(FileChannel lockFile) {
    if (lockFile == null) {
      return;
    }
    try {
      lockFile.close(); // releases the lock
    } catch (IOException ignored) {
      // the process ending releases it anyway
    }
  }
}
