-- Asynchronous scan planning: a plan too large to plan within its request is a job, planned by the
-- planning function. The job row is written in the same transaction as its scan_plan row and is
-- the outbox, claim and checkpoint as a purge job is: sent on the planning queue, claimed by one
-- invocation at a time, sent again by the sweep when its message was lost. Cancelling or expiring
-- the plan deletes its scan_plan row, and with it this row and its pages.
CREATE TABLE scan_plan_job (
    plan_id        uuid PRIMARY KEY REFERENCES scan_plan (id) ON DELETE CASCADE,
    -- the table's metadata file when the plan was submitted: the worker plans that version
    metadata_location text NOT NULL,
    -- the warehouse's scan-planning.tasks-per-page when the plan was submitted
    tasks_per_page integer NOT NULL CHECK (tasks_per_page > 0),
    state          text NOT NULL DEFAULT 'queued'
        CHECK (state IN ('queued', 'running', 'done', 'failed')),
    -- 'plan' until the pages are stored, in the transaction that stores them 'done'
    phase          text NOT NULL DEFAULT 'plan' CHECK (phase IN ('plan', 'done')),
    resume_at      text,
    attempts       integer NOT NULL DEFAULT 0,
    last_error     text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    -- when a message for the job was last sent; NULL while one is still to be sent
    sent_at        timestamptz,
    claim_id       uuid,
    claimed_until  timestamptz,
    finished_at    timestamptz
);

-- what the sweep scans: only unfinished jobs
CREATE INDEX scan_plan_job_unfinished ON scan_plan_job (state, updated_at)
    WHERE state IN ('queued', 'running');
