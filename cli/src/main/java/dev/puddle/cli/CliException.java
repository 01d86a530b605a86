package dev.puddle.cli;

/** A failure the command reports with a message of its own and an {@link ExitCode}. */
class CliException extends RuntimeException {
  private final int exitCode;

  CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  CliException(int exitCode, String message, Throwable cause) {
    super(message, cause);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }

  /** A mistake in the command line or the configuration. */
  static CliException usage(String format, Object... args) {
    return new CliException(ExitCode.USAGE, String.format(format, args));
  }
}
