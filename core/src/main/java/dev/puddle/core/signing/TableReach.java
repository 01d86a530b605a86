package dev.puddle.core.signing;

import dev.puddle.core.storage.S3Location;
import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * The objects a table's signed requests may reach: those below its locations (its own, and its data
 * and metadata paths where they lie outside it, as {@link
 * dev.puddle.core.vending.CredentialScope#forTable} lists them). Derived from one version of the
 * table's metadata, so it may be kept for as long as that version is current.
 */
public record TableReach(TableIdentifier table, List<S3Location> locations) {
  public TableReach {
    locations = List.copyOf(locations);
  }

  /** The reach of a table at these locations ({@code s3://} URIs; others reach nothing). */
  public static TableReach of(TableIdentifier table, List<String> locations) {
    return new TableReach(
        table, locations.stream().flatMap(l -> S3Location.parse(l).stream()).toList());
  }

  /** Throws 403, naming the first location out of reach, unless the request stays within. */
  public void check(S3Request request) {
    for (S3Location reached : request.reaches()) {
      if (locations.stream().noneMatch(reached::isBelow)) {
        throw new ForbiddenException(
            "Not signed: %s is outside the locations of table %s", reached.uri(), table);
      }
    }
  }
}
