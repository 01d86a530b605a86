-- Soft delete. A table or view dropped in a warehouse whose drop.retention is more than zero
-- leaves catalog_object for dropped_object, in the drop's transaction: every Iceberg read and
-- write looks at catalog_object only, so the object is gone for all of them at once and its name
-- is free, while its row (metadata pointer and JSON byte for byte), its files and its grants wait
-- for an undrop or for purge_due. When that passes, the purge sweep removes the row and, for a
-- drop that asked for a purge, records its purge job in the same transaction (the outbox).

CREATE TABLE dropped_object (
    -- the catalog_object id it had, and has again after an undrop
    id                 uuid PRIMARY KEY,
    warehouse_id       bigint NOT NULL REFERENCES warehouse (id),
    -- the namespace by name, not by id: a namespace whose only children are dropped ones counts
    -- as empty and may itself be dropped; an undrop then needs a namespace of that name again
    namespace_levels   text[] NOT NULL,
    name               text NOT NULL,
    kind               text NOT NULL CHECK (kind IN ('table', 'view')),
    location           text NOT NULL,
    owns_location      boolean NOT NULL,
    metadata_location  text NOT NULL,
    metadata           text NOT NULL,
    -- catalog_object's own timestamps, given back on undrop
    created_at         timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL,
    dropped_at         timestamptz NOT NULL DEFAULT now(),
    -- the principal whose request dropped it
    dropped_by         text NOT NULL,
    purge_requested    boolean NOT NULL,
    -- fixed at the drop from the retention then in force
    purge_due          timestamptz NOT NULL
);
CREATE INDEX dropped_object_listing ON dropped_object (warehouse_id, dropped_at DESC, id DESC);
CREATE INDEX dropped_object_due ON dropped_object (purge_due);
-- a dropped object keeps its location: overlap checks and purges of others count it as live
CREATE INDEX dropped_object_location ON dropped_object (warehouse_id, location text_pattern_ops);

-- The grants on a dropped object, moved out of privilege_grant (where they would resolve to the
-- name a new object may take) and moved back on undrop. A catalog role deleted meanwhile takes its
-- grants with it.
CREATE TABLE dropped_grant (
    object_id        uuid NOT NULL REFERENCES dropped_object (id) ON DELETE CASCADE,
    realm_id         text NOT NULL,
    catalog_role_id  bigint NOT NULL,
    privilege        text NOT NULL,
    PRIMARY KEY (object_id, catalog_role_id, privilege),
    FOREIGN KEY (realm_id, catalog_role_id) REFERENCES catalog_role (realm_id, id)
        ON DELETE CASCADE
);
CREATE INDEX dropped_grant_catalog_role ON dropped_grant (catalog_role_id);
