package dev.puddle.contract;

/**
 * The part of a warehouse bucket that is Puddle's own: one folder at the bucket's root, where the
 * catalog export writes (docs/operations.md, "Rebuild from the warehouse"). The catalog refuses
 * every table, view and file location in it, so no purge, maintenance run or signed request of a
 * table can reach it, and the stack denies the functions that delete tables' files any delete
 * there: the export that would bring the catalog back survives whatever a table's metadata names.
 */
public final class WarehouseLayout {
  /** The control folder: the first segment of every key Puddle keeps for itself. */
  public static final String CONTROL_FOLDER = "_puddle";

  /** Where the catalog export writes its snapshots and its {@code latest.json} pointer. */
  public static final String EXPORT_FOLDER = CONTROL_FOLDER + "/export";

  private WarehouseLayout() {}
}
