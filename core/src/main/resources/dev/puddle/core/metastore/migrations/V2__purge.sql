-- Purge jobs as a durable outbox and checkpoint: the drop's transaction records the job, the drop
-- then sends it to the purge queue, and the purge function records here where each job stands, so
-- that a function that dies loses no more than the batch it was working on.

ALTER TABLE purge_job
    ADD CONSTRAINT purge_job_state CHECK (state IN ('queued', 'running', 'done', 'failed')),
    -- where the purge resumes: 'reachable' (read metadata and manifests, note files outside the
    -- location), 'outside' (delete those, if the warehouse allows), 'location' (delete everything
    -- under the object's own location), then 'done'
    ADD COLUMN phase text NOT NULL DEFAULT 'reachable'
        CHECK (phase IN ('reachable', 'outside', 'location', 'done')),
    -- the position within the phase, opaque to everything but the purge function
    ADD COLUMN resume_at text,
    ADD COLUMN deleted_files bigint NOT NULL DEFAULT 0,
    -- files the metadata reaches outside the object's own location, left alone
    ADD COLUMN skipped_files bigint NOT NULL DEFAULT 0,
    -- when a message for the job was last sent; NULL while one is still to be sent
    ADD COLUMN sent_at timestamptz,
    -- the invocation working on the job and until when it may run; set while state = 'running'
    ADD COLUMN claim_id uuid,
    ADD COLUMN claimed_until timestamptz,
    ADD COLUMN finished_at timestamptz;

CREATE INDEX purge_job_listing ON purge_job (realm_id, warehouse_id, created_at DESC, object_id DESC);
-- what the sweep scans: only unfinished jobs
CREATE INDEX purge_job_unfinished ON purge_job (state, updated_at) WHERE state IN ('queued', 'running');

-- Files a job's metadata reaches outside the object's own location: noted while the metadata is
-- read (a path once, however often it is found), deleted only where the warehouse allows.
CREATE TABLE purge_outside_file (
    job_id  uuid NOT NULL REFERENCES purge_job (object_id) ON DELETE CASCADE,
    path    text NOT NULL,
    PRIMARY KEY (job_id, path)
);
