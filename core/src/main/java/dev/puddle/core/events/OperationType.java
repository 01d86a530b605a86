package dev.puddle.core.events;

import java.util.Arrays;
import java.util.Optional;

/**
 * The operation types of the Iceberg REST events proposal (apache/iceberg PR #12584), with their
 * wire names; {@link #CUSTOM} carries a vendor type, Puddle's are {@code x-puddle-…}. iceberg-core
 * 1.11 does not ship the proposal's models, so they are modelled here as the proposal names them.
 */
public enum OperationType {
  CREATE_TABLE("create-table"),
  REGISTER_TABLE("register-table"),
  DROP_TABLE("drop-table"),
  UPDATE_TABLE("update-table"),
  RENAME_TABLE("rename-table"),
  CREATE_VIEW("create-view"),
  DROP_VIEW("drop-view"),
  UPDATE_VIEW("update-view"),
  RENAME_VIEW("rename-view"),
  CREATE_NAMESPACE("create-namespace"),
  UPDATE_NAMESPACE_PROPERTIES("update-namespace-properties"),
  DROP_NAMESPACE("drop-namespace"),
  CUSTOM("custom");

  /** The prefix of every custom type Puddle records. */
  public static final String PUDDLE_PREFIX = "x-puddle-";

  private final String type;

  OperationType(String type) {
    this.type = type;
  }

  /** The wire name, e.g. {@code create-table}. */
  public String type() {
    return type;
  }

  /** The operation type of a wire name, if it is one. */
  public static Optional<OperationType> fromType(String type) {
    return Arrays.stream(values()).filter(t -> t.type.equals(type)).findFirst();
  }
}
