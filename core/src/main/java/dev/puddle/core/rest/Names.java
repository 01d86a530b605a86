package dev.puddle.core.rest;

import java.util.List;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * Namespaces and names in request paths. API Gateway decodes paths before Lambda sees them: {@code
 * %1F} arrives as a raw unit separator and {@code %2F} as {@code /}. Both the raw and the
 * still-encoded separator are accepted. Iceberg clients encode a space as {@code +}, which API
 * Gateway leaves as it is, so a {@code +} in a path is a space. A name with a {@code /} or a {@code
 * +}, a control character (NUL included), or that is {@code .} or {@code ..} could never be
 * addressed, nor one beyond {@link NameLimits}, so it is refused at creation.
 */
public final class Names {
  /** The separator advertised in {@code /v1/config}, as clients put it in URLs. */
  public static final String SEPARATOR_ENCODED = "%1F";

  private static final Pattern SEPARATOR = Pattern.compile("\u001f|%1[fF]");

  private Names() {}

  /** The namespace in a decoded path variable or {@code parent} query parameter. */
  public static Namespace namespace(String decoded) {
    if (decoded == null || decoded.isEmpty()) {
      return Namespace.empty();
    }
    String[] levels = SEPARATOR.split(decoded, -1);
    for (int i = 0; i < levels.length; i++) {
      levels[i] = segment(levels[i]);
    }
    return Namespace.of(levels);
  }

  /** A table or view name in a decoded path variable. */
  public static String segment(String decoded) {
    return decoded.replace('+', ' ');
  }

  /**
   * Fails unless every level of the namespace can be addressed in a request path and the namespace
   * is within {@link NameLimits}.
   */
  public static void checkCreatable(Namespace namespace) {
    if (namespace.isEmpty()) {
      throw new BadRequestException("Invalid namespace: empty");
    }
    for (String level : namespace.levels()) {
      check("namespace", namespace.toString(), level);
      if (SEPARATOR.matcher(level).find()) {
        throw new BadRequestException(
            "Invalid namespace %s: '%s' is the namespace separator",
            quoted(namespace.toString()), SEPARATOR_ENCODED);
      }
    }
    NameLimits.check(namespace, null);
  }

  /**
   * Fails unless the table or view and its namespace can be addressed in a request path and are
   * within {@link NameLimits}: checked at creation, registration and as a rename's destination.
   */
  public static void checkCreatable(TableIdentifier identifier) {
    check("name", identifier.toString(), identifier.name());
    List.of(identifier.namespace().levels())
        .forEach(level -> check("namespace", identifier.namespace().toString(), level));
    NameLimits.check(identifier.namespace(), identifier.name());
  }

  private static void check(String what, String whole, String part) {
    if (part == null || part.isEmpty()) {
      throw new BadRequestException("Invalid %s %s: empty name", what, quoted(whole));
    }
    if (part.equals(".") || part.equals("..")) {
      // clients and servers resolve dot segments in a path before anyone reads the name
      throw new BadRequestException(
          "Invalid %s %s: '%s' cannot be addressed in a request path", what, quoted(whole), part);
    }
    for (char unaddressable : new char[] {'/', '+'}) {
      if (part.indexOf(unaddressable) >= 0) {
        throw new BadRequestException(
            "Invalid %s %s: '%s' is not allowed, because it cannot be addressed in a request path",
            what, quoted(whole), unaddressable);
      }
    }
    for (int i = 0; i < part.length(); i++) {
      if (Character.isISOControl(part.charAt(i))) {
        throw new BadRequestException(
            "Invalid %s %s: control characters are not allowed", what, quoted(whole));
      }
    }
  }

  /** A name as an error message quotes it: control characters escaped, cut short. */
  static String quoted(String name) {
    return ErrorMapper.printable(name);
  }
}
