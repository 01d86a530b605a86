package dev.puddle.contract;

import java.util.Map;

/** A route and the decoded values of its path variables. */
public record RouteMatch(Route route, Map<String, String> pathParameters) {
  public RouteMatch {
    pathParameters = Map.copyOf(pathParameters);
  }
}
