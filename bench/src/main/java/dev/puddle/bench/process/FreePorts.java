package dev.puddle.bench.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free TCP ports on loopback, for servers that must be told their port up front. */
public final class FreePorts {
  private FreePorts() {}

  /** A port nothing listened on a moment ago; the child that gets it binds it right away. */
  public static int next() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free port on loopback", e);
    }
  }
}
