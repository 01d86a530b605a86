package dev.puddle.core.events;

import java.util.Arrays;
import java.util.Optional;

/** The object types of the events proposal's {@code object-types} filter. */
public enum CatalogObjectType {
  TABLE("table"),
  VIEW("view"),
  NAMESPACE("namespace");

  private final String type;

  CatalogObjectType(String type) {
    this.type = type;
  }

  public String type() {
    return type;
  }

  public static Optional<CatalogObjectType> fromType(String type) {
    return Arrays.stream(values()).filter(t -> t.type.equals(type)).findFirst();
  }
}
