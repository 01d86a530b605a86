package dev.puddle.core.vending;

import dev.puddle.core.auth.Caller;
import dev.puddle.core.metastore.Warehouse;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Which access to a table's data a caller holds: the access model's answer to whether the caller
 * has {@code TABLE_WRITE_DATA} ({@link AccessLevel#WRITE}), only {@code TABLE_READ_DATA} ({@link
 * AccessLevel#READ}) or neither ({@link AccessLevel#NONE}) on the table. Credential vending asks it
 * before any change is made, so a caller without data access gets 403 and no credentials.
 */
@FunctionalInterface
public interface DataAccess {
  AccessLevel of(Caller caller, Warehouse warehouse, TableIdentifier table);
}
