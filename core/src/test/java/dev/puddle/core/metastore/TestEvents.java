package dev.puddle.core.metastore;

import dev.puddle.core.events.CatalogObjectType;
import dev.puddle.core.events.OperationType;

/** Events for store tests that make changes of their own and do not look at what they record. */
public final class TestEvents {
  private TestEvents() {}

  /** An update of {@code object}, as a change of the store would record it. */
  public static ChangeEvent of(Warehouse warehouse, CatalogObject object) {
    return new ChangeEvent(
        warehouse.realm(),
        warehouse.id(),
        OperationType.UPDATE_TABLE,
        null,
        object.kind() == CatalogObject.Kind.TABLE
            ? CatalogObjectType.TABLE
            : CatalogObjectType.VIEW,
        object.identifier().namespace(),
        object.identifier().name(),
        null,
        "{\"operation-type\":\"update-table\"}");
  }
}
