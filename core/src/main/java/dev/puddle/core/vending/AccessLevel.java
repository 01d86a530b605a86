package dev.puddle.core.vending;

/**
 * How much of a table's data a caller may reach through vended credentials: none, read (Polaris's
 * {@code TABLE_READ_DATA}) or read and write ({@code TABLE_WRITE_DATA}).
 */
public enum AccessLevel {
  NONE,
  READ,
  WRITE
}
