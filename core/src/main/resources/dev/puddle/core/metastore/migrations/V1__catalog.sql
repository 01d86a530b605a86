-- Puddle's catalog schema. Every entity belongs to one realm; every table, view and namespace to
-- one warehouse of that realm. Foreign keys guarantee nothing is ever orphaned.

CREATE TABLE realm (
    id          text PRIMARY KEY,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE warehouse (
    id          bigserial PRIMARY KEY,
    realm_id    text NOT NULL REFERENCES realm (id),
    name        text NOT NULL,
    -- base location, e.g. s3://bucket/prefix, without a trailing slash
    location    text NOT NULL,
    properties  jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (realm_id, name)
);

CREATE TABLE namespace (
    id            bigserial PRIMARY KEY,
    warehouse_id  bigint NOT NULL REFERENCES warehouse (id),
    -- NULL for top-level namespaces; RESTRICT keeps a parent from being dropped under a child
    parent_id     bigint REFERENCES namespace (id) ON DELETE RESTRICT,
    levels        text[] NOT NULL,
    properties    jsonb NOT NULL DEFAULT '{}',
    -- normalized "location" property, kept apart so overlap checks can use an index
    location      text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (warehouse_id, levels)
);
CREATE INDEX namespace_parent ON namespace (warehouse_id, parent_id, levels);
CREATE INDEX namespace_location ON namespace (warehouse_id, location text_pattern_ops)
    WHERE location IS NOT NULL;

-- Tables and views share one identifier space per namespace.
CREATE TABLE catalog_object (
    -- the catalog's own id for the object; a purge job keeps it
    id                 uuid PRIMARY KEY,
    warehouse_id       bigint NOT NULL REFERENCES warehouse (id),
    namespace_id       bigint NOT NULL REFERENCES namespace (id) ON DELETE RESTRICT,
    name               text NOT NULL,
    kind               text NOT NULL CHECK (kind IN ('table', 'view')),
    -- the object's base location, without a trailing slash
    location           text NOT NULL,
    -- false for registered objects, whose files were placed by someone else
    owns_location      boolean NOT NULL,
    metadata_location  text NOT NULL,
    -- the current metadata JSON, so loads never touch object storage
    metadata           text NOT NULL,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    UNIQUE (namespace_id, name)
);
CREATE INDEX catalog_object_location ON catalog_object (warehouse_id, location text_pattern_ops);
CREATE INDEX catalog_object_listing ON catalog_object (namespace_id, kind, name);

-- What a purge of a dropped table or view needs, recorded in the drop's own transaction.
CREATE TABLE purge_job (
    object_id          uuid PRIMARY KEY,
    realm_id           text NOT NULL REFERENCES realm (id),
    warehouse_id       bigint NOT NULL REFERENCES warehouse (id),
    kind               text NOT NULL CHECK (kind IN ('table', 'view')),
    identifier         text NOT NULL,
    location           text NOT NULL,
    owns_location      boolean NOT NULL,
    metadata_location  text NOT NULL,
    state              text NOT NULL DEFAULT 'queued',
    attempts           integer NOT NULL DEFAULT 0,
    last_error         text,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now()
);
