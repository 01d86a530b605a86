package dev.puddle.contract;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the web console lives and the headers its files are served with, the same from the twin and
 * from CloudFront: the page, its script and its stylesheet under {@link #PATH}, on the origin of
 * the API it calls.
 */
public final class ConsoleSite {
  /** The console's path on its origin; its files are below it. */
  public static final String PATH = "/ui";

  /** Where the built files are in the console's jar. */
  public static final String RESOURCES = "dev/puddle/console/";

  /** The page, served at {@link #PATH} itself. */
  public static final String INDEX = "index.html";

  /**
   * No script or style but the console's own files, no inline script, no eval, API calls to the
   * same origin only, never framed (against clickjacking), no plugins, no foreign form targets.
   */
  public static final String CONTENT_SECURITY_POLICY =
      String.join(
          "; ",
          "default-src 'self'",
          "script-src 'self'",
          "style-src 'self'",
          "img-src 'self'",
          "connect-src 'self'",
          "object-src 'none'",
          "base-uri 'none'",
          "form-action 'self'",
          "frame-ancestors 'none'");

  /** The media types of the files the build makes. */
  private static final Map<String, String> MEDIA_TYPES =
      Map.of(
          ".html", "text/html; charset=utf-8",
          ".js", "text/javascript; charset=utf-8",
          ".css", "text/css; charset=utf-8");

  private ConsoleSite() {}

  /** The headers every file of the console is sent with, besides its content type. */
  public static Map<String, String> securityHeaders() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    headers.put("X-Content-Type-Options", "nosniff");
    headers.put("X-Frame-Options", "DENY");
    headers.put("Referrer-Policy", "no-referrer");
    headers.put("Cross-Origin-Opener-Policy", "same-origin");
    return headers;
  }

  /** The media type of a file of the console by its name, if the build makes files of that kind. */
  public static Optional<String> mediaType(String fileName) {
    int dot = fileName.lastIndexOf('.');
    return dot < 0
        ? Optional.empty()
        : Optional.ofNullable(MEDIA_TYPES.get(fileName.substring(dot)));
  }

  /** The files the build makes, each served at {@code /ui/<name>}. */
  public static List<String> files() {
    return List.of(INDEX, "app.js", "app.css");
  }
}
