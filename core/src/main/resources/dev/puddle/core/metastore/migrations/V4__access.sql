-- The access model, as Apache Polaris has it: principals hold principal roles, principal roles hold
-- catalog roles, catalog roles hold privileges on a warehouse (the catalog), a namespace, a table or
-- a view. Every row names its realm, and composite foreign keys through (realm_id, id) keep every
-- link inside one realm. Dropping anything cascades to the grants on it and of it, so nothing is
-- left dangling.

-- lets catalog roles reference a warehouse together with its realm
ALTER TABLE warehouse ADD CONSTRAINT warehouse_realm_id UNIQUE (realm_id, id);

CREATE TABLE principal (
    id                  bigserial PRIMARY KEY,
    realm_id            text NOT NULL REFERENCES realm (id) ON DELETE CASCADE,
    name                text NOT NULL,
    -- globally unique, so a client id alone names its realm
    client_id           text NOT NULL UNIQUE,
    -- PBKDF2 of the client secret; its parameters are kept with it so they can be raised later
    secret_algorithm    text NOT NULL,
    secret_iterations   integer NOT NULL,
    secret_salt         bytea NOT NULL,
    secret_hash         bytea NOT NULL,
    properties          jsonb NOT NULL DEFAULT '{}',
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    UNIQUE (realm_id, name),
    UNIQUE (realm_id, id)
);

CREATE TABLE principal_role (
    id          bigserial PRIMARY KEY,
    realm_id    text NOT NULL REFERENCES realm (id) ON DELETE CASCADE,
    name        text NOT NULL,
    properties  jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (realm_id, name),
    UNIQUE (realm_id, id)
);

-- principal -> principal role
CREATE TABLE principal_role_grant (
    realm_id           text NOT NULL,
    principal_id       bigint NOT NULL,
    principal_role_id  bigint NOT NULL,
    PRIMARY KEY (principal_id, principal_role_id),
    FOREIGN KEY (realm_id, principal_id) REFERENCES principal (realm_id, id) ON DELETE CASCADE,
    FOREIGN KEY (realm_id, principal_role_id) REFERENCES principal_role (realm_id, id)
        ON DELETE CASCADE
);
CREATE INDEX principal_role_grant_role ON principal_role_grant (principal_role_id);

CREATE TABLE catalog_role (
    id            bigserial PRIMARY KEY,
    realm_id      text NOT NULL,
    warehouse_id  bigint NOT NULL,
    name          text NOT NULL,
    properties    jsonb NOT NULL DEFAULT '{}',
    created_at    timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (realm_id, warehouse_id) REFERENCES warehouse (realm_id, id) ON DELETE CASCADE,
    UNIQUE (warehouse_id, name),
    UNIQUE (realm_id, id)
);

-- principal role -> catalog role
CREATE TABLE catalog_role_grant (
    realm_id           text NOT NULL,
    principal_role_id  bigint NOT NULL,
    catalog_role_id    bigint NOT NULL,
    PRIMARY KEY (principal_role_id, catalog_role_id),
    FOREIGN KEY (realm_id, principal_role_id) REFERENCES principal_role (realm_id, id)
        ON DELETE CASCADE,
    FOREIGN KEY (realm_id, catalog_role_id) REFERENCES catalog_role (realm_id, id)
        ON DELETE CASCADE
);
CREATE INDEX catalog_role_grant_catalog_role ON catalog_role_grant (catalog_role_id);

-- a privilege of a catalog role on its warehouse, a namespace, a table or a view of it. Grants on
-- a namespace or an object follow it through renames and go with it when it is dropped.
CREATE TABLE privilege_grant (
    id               bigserial PRIMARY KEY,
    realm_id         text NOT NULL,
    catalog_role_id  bigint NOT NULL,
    securable        text NOT NULL CHECK (securable IN ('catalog', 'namespace', 'table', 'view')),
    namespace_id     bigint REFERENCES namespace (id) ON DELETE CASCADE,
    object_id        uuid REFERENCES catalog_object (id) ON DELETE CASCADE,
    privilege        text NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (realm_id, catalog_role_id) REFERENCES catalog_role (realm_id, id)
        ON DELETE CASCADE,
    CHECK (CASE securable
        WHEN 'catalog' THEN namespace_id IS NULL AND object_id IS NULL
        WHEN 'namespace' THEN namespace_id IS NOT NULL AND object_id IS NULL
        ELSE namespace_id IS NULL AND object_id IS NOT NULL END)
);
CREATE UNIQUE INDEX privilege_grant_unique ON privilege_grant (
    catalog_role_id, securable, COALESCE(namespace_id, 0),
    COALESCE(object_id, '00000000-0000-0000-0000-000000000000'::uuid), privilege);
CREATE INDEX privilege_grant_namespace ON privilege_grant (namespace_id) WHERE namespace_id IS NOT NULL;
CREATE INDEX privilege_grant_object ON privilege_grant (object_id) WHERE object_id IS NOT NULL;

-- warehouses created before this migration get their catalog_admin now; bootstrapping their realm
-- grants it to service_admin, as it does for every warehouse older than the realm's root
INSERT INTO catalog_role (realm_id, warehouse_id, name)
    SELECT realm_id, id, 'catalog_admin' FROM warehouse;
INSERT INTO privilege_grant (realm_id, catalog_role_id, securable, privilege)
    SELECT cr.realm_id, cr.id, 'catalog', p
    FROM catalog_role cr, unnest(ARRAY['CATALOG_MANAGE_ACCESS', 'CATALOG_MANAGE_CONTENT']) AS p;
