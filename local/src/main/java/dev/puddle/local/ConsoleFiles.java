package dev.puddle.local;

import dev.puddle.contract.ConsoleSite;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Serves the web console at {@code /ui} as CloudFront does on AWS: its built files from the
 * console's jar, with {@link ConsoleSite#securityHeaders()}. Every other path goes on to the API.
 */
final class ConsoleFiles extends Handler.Abstract {
  private record File(String mediaType, byte[] content) {}

  private final Map<String, File> files;

  private ConsoleFiles(Map<String, File> files) {
    this.files = files;
  }

  /** The console's files, read once from the classpath: the build puts them there. */
  static ConsoleFiles fromClasspath() {
    Map<String, File> files = new LinkedHashMap<>();
    for (String name : ConsoleSite.files()) {
      String resource = ConsoleSite.RESOURCES + name;
      try (InputStream in = ConsoleFiles.class.getClassLoader().getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException("The console's " + resource + " is not on the classpath");
        }
        files.put(name, new File(ConsoleSite.mediaType(name).orElseThrow(), in.readAllBytes()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new ConsoleFiles(Map.copyOf(files));
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    String path = request.getHttpURI().getPath();
    if (!path.equals(ConsoleSite.PATH) && !path.startsWith(ConsoleSite.PATH + "/")) {
      return false;
    }
    ConsoleSite.securityHeaders().forEach(response.getHeaders()::put);
    // the files keep their names from build to build: a browser asks again each time
    response.getHeaders().put("Cache-Control", "no-cache");
    boolean head = HttpMethod.HEAD.is(request.getMethod());
    if (!head && !HttpMethod.GET.is(request.getMethod())) {
      response.getHeaders().put("Allow", "GET, HEAD");
      send(response, callback, 405, "text/plain; charset=utf-8", bytes("Method Not Allowed"), head);
      return true;
    }
    String name = path.substring(ConsoleSite.PATH.length()).replaceFirst("^/", "");
    File file = files.get(name.isEmpty() ? ConsoleSite.INDEX : name);
    if (file == null) {
      send(response, callback, 404, "text/plain; charset=utf-8", bytes("Not Found"), head);
    } else {
      send(response, callback, 200, file.mediaType(), file.content(), head);
    }
    return true;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static void send(
      Response response,
      Callback callback,
      int status,
      String mediaType,
      byte[] content,
      boolean head) {
    response.setStatus(status);
    response.getHeaders().put("Content-Type", mediaType);
    response.getHeaders().put("Content-Length", content.length);
    if (head) {
      callback.succeeded();
    } else {
      response.write(true, ByteBuffer.wrap(content), callback);
    }
  }
}
