package dev.puddle.core.access;

import dev.puddle.core.api.Privilege;
import dev.puddle.core.auth.Caller;
import dev.puddle.core.metastore.Warehouse;
import dev.puddle.core.vending.AccessLevel;
import dev.puddle.core.vending.DataAccess;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Data access as the caller's grants give it: {@code TABLE_WRITE_DATA} on the table, or on a
 * namespace or catalog above it, vends read-write credentials; {@code TABLE_READ_DATA} read-only
 * ones; anything less none. Read afresh for each request, like every other privilege check.
 */
public final class GrantedDataAccess implements DataAccess {
  private final AccessQuery query;

  public GrantedDataAccess(AccessQuery query) {
    this.query = query;
  }

  @Override
  public AccessLevel of(Caller caller, Warehouse warehouse, TableIdentifier table) {
    CallerAccess access = query.load(caller, warehouse.id());
    Securable target = Securable.table(table);
    if (access.holds(Privilege.TABLE_WRITE_DATA, target)) {
      return AccessLevel.WRITE;
    }
    return access.holds(Privilege.TABLE_READ_DATA, target) ? AccessLevel.READ : AccessLevel.NONE;
  }
}
