-- Server-side scan planning: plans whose tasks do not fit one response, kept so that any instance
-- answers fetchPlanningResult, fetchScanTasks and cancelPlanning. A plan belongs to the principal
-- of the realm that asked for it, for one table of one warehouse; to anyone else its id is unknown.
-- Rows live until expires_at (see docs/scan-planning.md for the lifetime); a cancel deletes its
-- plan at once, and the planning sweep deletes the expired ones.
CREATE TABLE scan_plan (
    id            uuid PRIMARY KEY,
    realm_id      text NOT NULL REFERENCES realm (id),
    principal     text NOT NULL,
    warehouse_id  bigint NOT NULL REFERENCES warehouse (id) ON DELETE CASCADE,
    -- the table as its identifier reads (namespace levels and name joined with '.')
    table_name    text NOT NULL,
    state         text NOT NULL CHECK (state IN ('submitted', 'completed', 'failed')),
    -- the planTableScan request as iceberg-core writes it, for the worker of a submitted plan
    request       text NOT NULL,
    -- pages of file scan tasks, 0 .. page_count - 1, once completed
    page_count    integer NOT NULL DEFAULT 0,
    -- the ErrorResponse of a failed plan
    error         text,
    -- the planning worker's outbox: when a message for a submitted plan was last sent (NULL while
    -- one is still to be sent), and the invocation working on it, until when
    sent_at       timestamptz,
    attempts      integer NOT NULL DEFAULT 0,
    claim_id      uuid,
    claimed_until timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz NOT NULL
);

CREATE INDEX scan_plan_expiry ON scan_plan (expires_at);
CREATE INDEX scan_plan_submitted ON scan_plan (updated_at) WHERE state = 'submitted';

-- A page of a plan's file scan tasks: the body of its fetchScanTasks response, as iceberg-core's
-- FetchScanTasksResponse serializer wrote it (the tasks and the delete files they reference).
CREATE TABLE scan_plan_page (
    plan_id  uuid NOT NULL REFERENCES scan_plan (id) ON DELETE CASCADE,
    page     integer NOT NULL,
    body     text NOT NULL,
    PRIMARY KEY (plan_id, page)
);
