package dev.puddle.core.access;

import java.util.Map;

/** A principal of a realm: an engine, a service or a person, with its client id. */
public record Principal(String name, String clientId, Map<String, String> properties) {
  public Principal {
    properties = Map.copyOf(properties);
  }
}
