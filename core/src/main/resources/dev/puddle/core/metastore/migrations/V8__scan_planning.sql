-- Server-side scan planning: completed plans whose tasks do not fit one response, kept so that any
-- instance answers fetchPlanningResult, fetchScanTasks and cancelPlanning. A plan belongs to the principal
-- of the realm that asked for it, for one table of one warehouse; to anyone else its id is unknown.
-- Rows live until expires_at (see docs/scan-planning.md for the lifetime); a cancel deletes its
-- plan at once, and the scheduled sweep (and each new stored plan) deletes expired ones.
CREATE TABLE scan_plan (
    id            uuid PRIMARY KEY,
    realm_id      text NOT NULL REFERENCES realm (id),
    principal     text NOT NULL,
    warehouse_id  bigint NOT NULL REFERENCES warehouse (id) ON DELETE CASCADE,
    -- the table as its identifier reads (namespace levels and name joined with '.')
    table_name    text NOT NULL,
    -- the planTableScan request as iceberg-core writes it: what the plan is of
    request       text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz NOT NULL
);

CREATE INDEX scan_plan_expiry ON scan_plan (expires_at);

-- A page of a plan's file scan tasks: the body of its fetchScanTasks response, as iceberg-core's
-- FetchScanTasksResponse serializer wrote it (the tasks and the delete files they reference).
CREATE TABLE scan_plan_page (
    plan_id  uuid NOT NULL REFERENCES scan_plan (id) ON DELETE CASCADE,
    page     integer NOT NULL,
    body     text NOT NULL,
    PRIMARY KEY (plan_id, page)
);
