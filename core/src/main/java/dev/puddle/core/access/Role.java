package dev.puddle.core.access;

import java.util.Map;

/** A principal role of a realm, or a catalog role of a warehouse. */
public record Role(String name, Map<String, String> properties) {
  public Role {
    properties = Map.copyOf(properties);
  }
}
