package dev.puddle.cli;

/**
 * The exit codes of {@code puddle}, so that scripts can tell why a command failed without reading
 * its message. docs/cli.md lists them.
 */
public final class ExitCode {
  public static final int OK = 0;

  /**
   * Anything else: the catalog unreachable, a request it rejected (400, 422), an unknown failure.
   */
  public static final int FAILED = 1;

  /** The command line or the configuration is wrong: nothing was sent. */
  public static final int USAGE = 2;

  /** The catalog answered 404: no such warehouse, principal, role, namespace, table or job. */
  public static final int NOT_FOUND = 3;

  /** The catalog answered 401 or 403: a bad credential, or a caller without the privilege. */
  public static final int REFUSED = 4;

  /** The catalog answered 5xx: the outcome of a change is unknown. */
  public static final int SERVER_ERROR = 5;

  /** The catalog answered 409: the name exists already, or the object is in use. */
  public static final int CONFLICT = 6;

  private ExitCode() {}

  /** The exit code for a catalog's error status. */
  static int ofStatus(int status) {
    if (status == 404) {
      return NOT_FOUND;
    }
    if (status == 401 || status == 403) {
      return REFUSED;
    }
    if (status == 409) {
      return CONFLICT;
    }
    return status >= 500 ? SERVER_ERROR : FAILED;
  }
}
