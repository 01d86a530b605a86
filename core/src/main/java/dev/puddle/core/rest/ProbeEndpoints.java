package dev.puddle.core.rest;

import dev.puddle.core.api.Response;
import dev.puddle.core.metastore.Database;
import dev.puddle.core.metastore.SchemaVersionCheck;
import java.sql.SQLNonTransientConnectionException;

/** {@code GET /healthz} (the process answers) and {@code GET /readyz} (the metastore answers). */
final class ProbeEndpoints {
  private final Database database;

  ProbeEndpoints(Database database) {
    this.database = database;
  }

  Response health() {
    return Response.json(200, "{\"status\":\"ok\"}");
  }

  Response ready() {
    try {
      database.read(
          connection -> {
            if (!connection.isValid(2)) {
              // a connection failure (class 08) makes the metastore discard it: the next request
              // reconnects instead of failing on it
              throw new SQLNonTransientConnectionException(
                  "Metastore connection is no longer valid", "08006");
            }
            return null;
          });
      return Response.json(200, "{\"status\":\"ready\"}");
    } catch (RuntimeException e) {
      // a schema this release does not know is no outage: say so, that is what the operator needs
      return ErrorMapper.error(
          503,
          "ServiceUnavailableException",
          SchemaVersionCheck.refused(e) ? e.getMessage() : "Metastore unreachable");
    }
  }
}
