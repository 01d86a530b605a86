/**
 * Recovery of a lost metastore: the periodic catalog export to the warehouse bucket ({@link
 * dev.puddle.core.recovery.ExportStore}) and the rebuild from the warehouse's metadata files and
 * the latest export ({@link dev.puddle.core.recovery.Rebuild}).
 */
package dev.puddle.core.recovery;
