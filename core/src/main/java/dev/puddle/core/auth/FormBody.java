package dev.puddle.core.auth;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** The parameters of an {@code application/x-www-form-urlencoded} body, as token requests send. */
final class FormBody {
  private FormBody() {}

  /**
   * The parameters of {@code body}. A parameter given twice, or a malformed escape, is an {@code
   * invalid_request} (RFC 6749 section 3.2: parameters must not be repeated).
   */
  static Map<String, String> parse(String body) {
    Map<String, String> parameters = new HashMap<>();
    if (body == null || body.isBlank()) {
      return parameters;
    }
    for (String pair : body.trim().split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int equals = pair.indexOf('=');
      String name = decode(equals < 0 ? pair : pair.substring(0, equals));
      String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
      if (parameters.put(name, value) != null) {
        throw OAuthError.invalidRequest("Parameter " + name + " is given more than once");
      }
    }
    return parameters;
  }

  static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw OAuthError.invalidRequest("The request body is not form-encoded");
    }
  }
}
