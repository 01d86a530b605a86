package dev.puddle.core.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.zip.GZIPOutputStream;

/**
 * A body written once and, while it is written, gzipped on a thread of its own: each chunk written
 * is handed to a virtual thread that deflates it as the writer goes on, so that writing a large
 * body and compressing it take about the longer of the two rather than their sum (a {@code
 * planTableScan} answer of 10,000 tasks is about 3 MB of JSON, written in about as long as its gzip
 * takes). The gzip is {@link Gzip#compress(String)}'s: one member, the fastest level. Not
 * thread-safe: one writer, then {@link #finish}.
 */
public final class GzipAlongside extends OutputStream {
  /** The bytes handed to the deflating thread at a time. */
  private static final int CHUNK = 128 * 1024;

  /** A body written, as text (UTF-8), and its gzip. */
  public record Written(String text, byte[] gzipped) {}

  /** A range of the body, final once handed over; the empty one says the body is complete. */
  private record Chunk(byte[] array, int from, int to) {}

  private static final Chunk END = new Chunk(new byte[0], 0, 0);

  private final BlockingQueue<Chunk> chunks = new ArrayBlockingQueue<>(64);
  private final FutureTask<byte[]> gzip;
  private final int expectedBytes;
  private byte[] buffer;
  private int size;
  private int handedOver;
  private boolean finished;

  /** A body of about {@code expectedBytes}. */
  public GzipAlongside(int expectedBytes) {
    this.expectedBytes = Math.max(CHUNK, expectedBytes);
    this.buffer = new byte[this.expectedBytes];
    this.gzip = new FutureTask<>(this::deflate);
    Thread.ofVirtual().name("puddle-gzip").start(gzip);
  }

  private byte[] deflate() throws IOException, InterruptedException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(expectedBytes / 8 + 64);
    try (GZIPOutputStream gzipped = Gzip.fastest(out)) {
      for (Chunk chunk = chunks.take(); chunk != END; chunk = chunks.take()) {
        gzipped.write(chunk.array(), chunk.from(), chunk.to() - chunk.from());
      }
    }
    return out.toByteArray();
  }

  @Override
  public void write(int b) {
    ensure(1);
    buffer[size++] = (byte) b;
    handOver(false);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) {
    ensure(length);
    System.arraycopy(bytes, offset, buffer, size, length);
    size += length;
    handOver(false);
  }

  /**
   * Room for {@code length} more bytes; what was handed over stays valid in the array it was in.
   */
  private void ensure(int length) {
    if (finished) {
      throw new IllegalStateException("The body is finished");
    }
    if (size + length > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(size + length, buffer.length * 2));
    }
  }

  private void handOver(boolean all) {
    if (size - handedOver >= CHUNK || (all && size > handedOver)) {
      put(new Chunk(buffer, handedOver, size));
      handedOver = size;
    }
  }

  private void put(Chunk chunk) {
    try {
      chunks.put(chunk);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      gzip.cancel(true);
      throw new IllegalStateException("Interrupted while gzipping a body", e);
    }
  }

  /** Does nothing: a writer closing the stream does not end the body, {@link #finish} does. */
  @Override
  public void close() {}

  /** The body written and its gzip, once the deflating thread has caught up. */
  public Written finish() {
    if (!finished) {
      handOver(true);
      finished = true;
      put(END);
    }
    try {
      return new Written(new String(buffer, 0, size, StandardCharsets.UTF_8), gzip.get());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while gzipping a body", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw new UncheckedIOException(io);
      }
      throw new IllegalStateException("Gzipping a body failed", e.getCause());
    }
  }

  /**
   * Ends the body without its gzip (the writer failed): the deflating thread stops. Safe to call
   * after {@link #finish}.
   */
  public void abandon() {
    if (!finished) {
      finished = true;
      if (!chunks.offer(END)) {
        gzip.cancel(true);
      }
    }
  }
}
