package dev.puddle.core.rest;

import java.nio.charset.StandardCharsets;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.RESTUtil;

/**
 * How long names may be, so that every request naming them fits API Gateway's budget of 10,240
 * bytes for the request line and headers together, with room to spare for the warehouse prefix, the
 * query and the headers (a bearer token alone takes one or two kilobytes), and so that the object
 * keys of a table's files, which hold its namespace and name, stay under S3's 1,024 bytes.
 */
public final class NameLimits {
  /** The most UTF-8 bytes of a namespace level, a table name or a view name. */
  public static final int MAX_NAME_BYTES = 255;

  /** The most levels of a namespace. */
  public static final int MAX_LEVELS = 16;

  /**
   * The most characters of a namespace and a name together as a client puts them in a request path:
   * percent-encoded, the levels joined by {@code %1F}, with the {@code /} between them.
   */
  public static final int MAX_ENCODED_PATH_CHARS = 768;

  private NameLimits() {}

  /** Fails unless a namespace, and the table or view {@code name} in it (or null), are within. */
  static void check(Namespace namespace, String name) {
    if (namespace.length() > MAX_LEVELS) {
      throw new BadRequestException(
          "Invalid namespace %s: %d levels, more than %d",
          Names.quoted(namespace.toString()), namespace.length(), MAX_LEVELS);
    }
    for (String level : namespace.levels()) {
      checkBytes("namespace level", level);
    }
    int encoded = RESTUtil.encodeNamespace(namespace, Names.SEPARATOR_ENCODED).length();
    if (name != null) {
      checkBytes("name", name);
      encoded += 1 + RESTUtil.encodeString(name).length();
    }
    if (encoded > MAX_ENCODED_PATH_CHARS) {
      throw new BadRequestException(
          "Invalid %s %s: %d characters in a request path once encoded, more than %d",
          name == null ? "namespace" : "name",
          Names.quoted(name == null ? namespace.toString() : namespace + "." + name),
          encoded,
          MAX_ENCODED_PATH_CHARS);
    }
  }

  private static void checkBytes(String what, String value) {
    int bytes = value.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_NAME_BYTES) {
      throw new BadRequestException(
          "Invalid %s %s: %d bytes in UTF-8, more than %d",
          what, Names.quoted(value), bytes, MAX_NAME_BYTES);
    }
  }
}
