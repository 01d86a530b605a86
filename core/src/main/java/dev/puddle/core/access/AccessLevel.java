package dev.puddle.core.access;

/**
 * How much of a table's data a caller may reach through vended credentials: read (Polaris's {@code
 * TABLE_READ_DATA}) or read and write ({@code TABLE_WRITE_DATA}); see {@link
 * AccessPolicy#delegation}.
 */
public enum AccessLevel {
  READ,
  WRITE
}
