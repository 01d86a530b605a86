package dev.puddle.cli;

/** The catalog refused a request: its HTTP status and the message of its {@code ErrorResponse}. */
final class CatalogError extends CliException {
  private final int status;

  CatalogError(int status, String message) {
    super(ExitCode.ofStatus(status), message);
    this.status = status;
  }

  int status() {
    return status;
  }
}
