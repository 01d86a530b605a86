package dev.puddle.core.metastore;

import java.util.UUID;

/**
 * A submitted scan plan as the planning worker sees it: the {@code planTableScan} request, the
 * table's metadata file when it was submitted (the version planned), the page size, and whether its
 * pages are stored yet ({@code done}).
 */
public record ScanPlanJob(
    UUID planId, String request, String metadataLocation, int tasksPerPage, boolean done) {}
