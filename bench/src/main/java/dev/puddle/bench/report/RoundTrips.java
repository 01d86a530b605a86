package dev.puddle.bench.report;

import dev.puddle.bench.measure.Budget;
import dev.puddle.bench.measure.Latencies;
import dev.puddle.core.metastore.PostgresConnections;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.iceberg.io.FileIO;

/**
 * What one round trip costs on this machine, measured after the run: a byte echoed over loopback
 * TCP, {@code SELECT 1} on the twin's PostgreSQL as Puddle's connections send it (pgjdbc, no
 * server-side prepared statement), and reading a small object from the twin's S3 server with {@code
 * S3FileIO}. Every load pays some of these: Puddle's one statement, the reference's a statement and
 * an S3 read. Machines where they are dear give lower load ratios than machines where the servers'
 * own work dominates; the figures let runs on different machines be compared.
 *
 * @param tcpEchoMicros the median echo, in microseconds
 * @param selectOneMicros the median {@code SELECT 1}, in microseconds
 * @param s3ReadMicros the median read of a small object, in microseconds
 */
public record RoundTrips(double tcpEchoMicros, double selectOneMicros, double s3ReadMicros) {
  /** Long enough for this JVM's side of each trip (the S3 client above all) to be compiled. */
  private static final Budget WARM_UP = new Budget(Duration.ofSeconds(10), 1, Integer.MAX_VALUE);

  private static final Budget MEASURED = new Budget(Duration.ofSeconds(3), 1, Integer.MAX_VALUE);

  /** The size of the object read: about a small table's metadata file. */
  private static final int OBJECT_BYTES = 2048;

  /** One round trip of a kind. */
  @FunctionalInterface
  private interface Trip {
    void run() throws Exception;
  }

  /**
   * Measures all three on loopback.
   *
   * @param jdbcUrl a database of the twin's PostgreSQL
   * @param io the clients' FileIO on the twin's S3 server
   * @param location where the object read may be written, outside every table
   */
  public static RoundTrips measure(String jdbcUrl, FileIO io, String location) {
    try {
      return new RoundTrips(tcpEcho(), selectOne(jdbcUrl), s3Read(io, location));
    } catch (Exception e) {
      throw new IllegalStateException("A round trip failed", e);
    }
  }

  /** One line for the report. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "loopback TCP echo p50 %.0f µs; PostgreSQL `SELECT 1` through pgjdbc p50 %.0f µs; a"
            + " %d-byte S3 object read with S3FileIO p50 %.0f µs",
        tcpEchoMicros,
        selectOneMicros,
        OBJECT_BYTES,
        s3ReadMicros);
  }

  private static double tcpEcho() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      // echoes until the measuring side closes its end
      Thread.ofPlatform()
          .daemon()
          .name("round-trip-echo")
          .start(
              () -> {
                try (Socket peer = server.accept()) {
                  peer.setTcpNoDelay(true);
                  InputStream in = peer.getInputStream();
                  OutputStream out = peer.getOutputStream();
                  for (int b = in.read(); b >= 0; b = in.read()) {
                    out.write(b);
                  }
                } catch (IOException e) {
                  // the measuring side went away: nothing left to echo
                }
              });
      try (Socket client = new Socket(server.getInetAddress(), server.getLocalPort())) {
        client.setTcpNoDelay(true);
        InputStream in = client.getInputStream();
        OutputStream out = client.getOutputStream();
        return medianMicros(
            () -> {
              out.write(1);
              if (in.read() < 0) {
                throw new IOException("The echo closed its connection");
              }
            });
      }
    }
  }

  private static double selectOne(String jdbcUrl) throws Exception {
    // the connection Puddle opens: no server-side prepared statements, nothing set on the session
    try (Connection connection = PostgresConnections.factory(jdbcUrl, "postgres", null).open()) {
      return medianMicros(
          () -> {
            try (PreparedStatement statement = connection.prepareStatement("SELECT 1");
                ResultSet rs = statement.executeQuery()) {
              rs.next();
            }
          });
    }
  }

  private static double s3Read(FileIO io, String location) throws Exception {
    try (OutputStream out = io.newOutputFile(location).createOrOverwrite()) {
      out.write(new byte[OBJECT_BYTES]);
    }
    try {
      return medianMicros(
          () -> {
            try (InputStream in = io.newInputFile(location).newStream()) {
              if (in.readAllBytes().length != OBJECT_BYTES) {
                throw new IOException("Read back a different object from " + location);
              }
            }
          });
    } finally {
      io.deleteFile(location);
    }
  }

  /** Runs {@code trip} for the warm-up, then times each trip for the measured span. */
  private static double medianMicros(Trip trip) throws Exception {
    long warmUpStart = System.nanoTime();
    for (int done = 0; WARM_UP.more(warmUpStart, done); done++) {
      trip.run();
    }
    List<Long> nanos = new ArrayList<>();
    long started = System.nanoTime();
    while (MEASURED.more(started, nanos.size())) {
      long start = System.nanoTime();
      trip.run();
      nanos.add(System.nanoTime() - start);
    }
    return Latencies.of(nanos).p50() * 1_000;
  }
}
