-- Idempotency keys of mutations (the Iceberg REST `Idempotency-Key` header), kept in PostgreSQL so
-- that whichever function instance serves a retry can replay the first response. A key belongs to
-- one attempt at a time; every database transaction of that attempt that changes something also
-- sets `applied`, in the same transaction, so a key whose attempt died is known to have taken
-- effect or not. No foreign key to realm: a key is claimed before anything else is looked up.
CREATE TABLE idempotency_key (
    realm_id      text NOT NULL,
    key           uuid NOT NULL,
    -- SHA-256 of the operation, its path and query parameters and its body
    request_hash  bytea NOT NULL,
    operation     text NOT NULL,
    -- the attempt that owns the key: only its transactions may record an effect
    attempt       uuid NOT NULL,
    -- the owning attempt counts as running until then
    lease_until   timestamptz NOT NULL,
    -- a transaction of the owning attempt committed a change
    applied       boolean NOT NULL DEFAULT false,
    -- the final response once there is one: status, headers (JSON) and gzipped body
    status        integer,
    headers       text,
    body          bytea,
    -- the first submission: the key's lifetime counts from here
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (realm_id, key)
);
CREATE INDEX idempotency_key_created ON idempotency_key (created_at);
