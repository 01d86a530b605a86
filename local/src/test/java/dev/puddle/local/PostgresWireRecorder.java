package dev.puddle.local;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A TCP relay on loopback in front of a PostgreSQL server that reads the frontend side of the wire
 * protocol as it passes: the startup message's parameters, every simple query ({@code Q}) and every
 * statement parsed for the extended protocol ({@code P}, with its statement name). Bytes are
 * relayed unchanged; passwords are not recorded. What an RDS Proxy sees of a client, and so what
 * decides whether it pins the session.
 */
final class PostgresWireRecorder implements AutoCloseable {
  private static final int PROTOCOL_3 = 196608;
  private static final int SSL_REQUEST = 80877103;
  private static final int GSSENC_REQUEST = 80877104;

  /** A statement as sent: {@code Q} (simple query) or {@code P} (parse, named or unnamed). */
  record Sent(char message, String name, String sql) {}

  private final ServerSocket server;
  private final int targetPort;
  private final List<Map<String, String>> startups = new ArrayList<>();
  private final List<Sent> statements = new ArrayList<>();

  private PostgresWireRecorder(ServerSocket server, int targetPort) {
    this.server = server;
    this.targetPort = targetPort;
  }

  static PostgresWireRecorder start(int targetPort) {
    try {
      PostgresWireRecorder recorder =
          new PostgresWireRecorder(
              new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), targetPort);
      Thread.ofVirtual().start(recorder::accept);
      return recorder;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  int port() {
    return server.getLocalPort();
  }

  synchronized List<Map<String, String>> startups() {
    return List.copyOf(startups);
  }

  synchronized List<Sent> statements() {
    return List.copyOf(statements);
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket target = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        Thread.ofVirtual().start(() -> copy(target, client));
        Thread.ofVirtual().start(() -> read(client, target));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private static void copy(Socket from, Socket to) {
    try (from;
        to) {
      from.getInputStream().transferTo(to.getOutputStream());
    } catch (IOException ignored) {
      // either side went away: the other is closed with it
    }
  }

  private void read(Socket client, Socket target) {
    try (client;
        target) {
      DataInputStream in = new DataInputStream(client.getInputStream());
      OutputStream out = target.getOutputStream();
      while (true) { // untyped messages until the startup message
        int length = in.readInt();
        byte[] body = new byte[length - 4];
        in.readFully(body);
        out.write(intBytes(length));
        out.write(body);
        out.flush();
        int code = intAt(body, 0);
        if (code == SSL_REQUEST || code == GSSENC_REQUEST) {
          continue; // the server answers N: the startup message follows in the clear
        }
        if (code != PROTOCOL_3) {
          return; // a cancel request: nothing follows
        }
        recordStartup(body);
        break;
      }
      while (true) {
        int type = in.read();
        if (type < 0) {
          return;
        }
        int length = in.readInt();
        byte[] body = new byte[length - 4];
        in.readFully(body);
        if (type == 'Q') {
          record(new Sent('Q', "", cstrings(body, 0, 1).getFirst()));
        } else if (type == 'P') {
          List<String> parts = cstrings(body, 0, 2);
          record(new Sent('P', parts.get(0), parts.get(1)));
        }
        out.write(type);
        out.write(intBytes(length));
        out.write(body);
        out.flush();
      }
    } catch (EOFException ignored) {
      // the client closed the connection
    } catch (IOException ignored) {
      // either side went away
    }
  }

  private void recordStartup(byte[] body) {
    List<String> parts = cstrings(body, 4, Integer.MAX_VALUE);
    Map<String, String> parameters = new LinkedHashMap<>();
    for (int i = 0; i + 1 < parts.size(); i += 2) {
      parameters.put(parts.get(i), parts.get(i + 1));
    }
    synchronized (this) {
      startups.add(parameters);
    }
  }

  private synchronized void record(Sent sent) {
    statements.add(sent);
  }

  /** Up to {@code count} NUL-terminated strings from {@code offset}, stopping at an empty one. */
  private static List<String> cstrings(byte[] body, int offset, int count) {
    List<String> strings = new ArrayList<>();
    int start = offset;
    for (int i = offset; i < body.length && strings.size() < count; i++) {
      if (body[i] == 0) {
        if (i == start && count == Integer.MAX_VALUE) {
          break; // the startup message's terminator
        }
        strings.add(new String(body, start, i - start, StandardCharsets.UTF_8));
        start = i + 1;
      }
    }
    return strings;
  }

  private static int intAt(byte[] bytes, int offset) {
    return ((bytes[offset] & 0xff) << 24)
        | ((bytes[offset + 1] & 0xff) << 16)
        | ((bytes[offset + 2] & 0xff) << 8)
        | (bytes[offset + 3] & 0xff);
  }

  private static byte[] intBytes(int value) {
    return new byte[] {
      (byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value
    };
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException ignored) {
      // nothing more to release
    }
  }
}
