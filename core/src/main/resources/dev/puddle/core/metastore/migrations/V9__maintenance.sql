-- Table maintenance runs: snapshot expiry, then the deletion of the files it left unreachable, of
-- the metadata files dropped from the metadata log, and of orphan files. A run is a job row, an
-- outbox and checkpoint as a purge job is: recorded, then sent on the purge queue, claimed by one
-- invocation at a time and checkpointed after each step.

CREATE TABLE maintenance_job (
    id                       uuid PRIMARY KEY,
    realm_id                 text NOT NULL REFERENCES realm (id),
    warehouse_id             bigint NOT NULL REFERENCES warehouse (id) ON DELETE CASCADE,
    -- the table's catalog_object id; no foreign key, so a dropped table's runs stay listed
    table_id                 uuid NOT NULL,
    identifier               text NOT NULL,
    -- what started the run
    trigger                  text NOT NULL CHECK (trigger IN ('schedule', 'commit', 'request')),
    state                    text NOT NULL DEFAULT 'queued'
        CHECK (state IN ('queued', 'running', 'done', 'failed')),
    -- where the run resumes: 'expire' (commit the expiry), 'plan' (note the files it left
    -- unreachable), 'delete' (delete them), 'orphans' (list the location, delete orphans and old
    -- metadata files), then 'done'
    phase                    text NOT NULL DEFAULT 'expire'
        CHECK (phase IN ('expire', 'plan', 'delete', 'orphans', 'done')),
    -- the position within the phase, opaque to everything but the maintenance worker
    resume_at                text,
    attempts                 integer NOT NULL DEFAULT 0,
    snapshots_expired        bigint NOT NULL DEFAULT 0,
    deleted_data_files       bigint NOT NULL DEFAULT 0,
    deleted_delete_files     bigint NOT NULL DEFAULT 0,
    deleted_manifests        bigint NOT NULL DEFAULT 0,
    deleted_manifest_lists   bigint NOT NULL DEFAULT 0,
    deleted_statistics_files bigint NOT NULL DEFAULT 0,
    deleted_metadata_files   bigint NOT NULL DEFAULT 0,
    deleted_orphan_files     bigint NOT NULL DEFAULT 0,
    -- the sizes of the deleted files whose size the metadata or the listing states
    deleted_bytes            bigint NOT NULL DEFAULT 0,
    last_error               text,
    created_at               timestamptz NOT NULL DEFAULT now(),
    updated_at               timestamptz NOT NULL DEFAULT now(),
    -- when a message for the job was last sent; NULL while one is still to be sent
    sent_at                  timestamptz,
    -- the invocation working on the job and until when it may run; set while state = 'running'
    claim_id                 uuid,
    claimed_until            timestamptz,
    finished_at              timestamptz
);

-- at most one unfinished run per table: starting another while one waits or runs does nothing
CREATE UNIQUE INDEX maintenance_job_one_per_table ON maintenance_job (table_id)
    WHERE state IN ('queued', 'running');
CREATE INDEX maintenance_job_listing
    ON maintenance_job (realm_id, warehouse_id, created_at DESC, id DESC);
CREATE INDEX maintenance_job_latest ON maintenance_job (table_id, created_at DESC);
-- what the sweep scans: only unfinished jobs
CREATE INDEX maintenance_job_unfinished ON maintenance_job (state, updated_at)
    WHERE state IN ('queued', 'running');

-- The files an expiry left unreachable, noted before any is deleted, deleted in path order.
CREATE TABLE maintenance_file (
    job_id  uuid NOT NULL REFERENCES maintenance_job (id) ON DELETE CASCADE,
    path    text NOT NULL,
    kind    text NOT NULL CHECK (kind IN ('data', 'delete', 'manifest', 'manifest-list',
                                          'statistics')),
    -- in bytes, as the metadata states it; 0 where it states none (manifest lists)
    size    bigint NOT NULL,
    PRIMARY KEY (job_id, path)
);
