package dev.puddle.core.api;

/**
 * The limits of a request as API Gateway's HTTP API sets them, which the functions and the local
 * twin's front enforce alike, so that a request the twin accepts is one AWS would accept too.
 */
public final class RequestLimits {
  /** API Gateway's HTTP API payload limit, 10 MB: a larger body is refused with 413. */
  public static final int MAX_BODY_BYTES = 10 * 1024 * 1024;

  /** API Gateway's limit on a request's line and header values together, in bytes. */
  public static final int MAX_REQUEST_LINE_AND_HEADER_BYTES = 10240;

  private RequestLimits() {}
}
