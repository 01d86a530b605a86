-- V4's access model: a principal with its hashed secret, principal roles, a catalog role of the
-- warehouse and privileges on the catalog, a namespace, a table and a view; the migration itself
-- gave the warehouse its catalog_admin role.
INSERT INTO principal (realm_id, name, client_id, secret_algorithm, secret_iterations, secret_salt,
        secret_hash, properties, created_at, updated_at)
    VALUES ('default', 'etl', 'etl-client-4f1c', 'PBKDF2WithHmacSHA256', 210000,
            '\x00112233445566778899aabbccddeeff', sha256('not a real secret'),
            '{"team": "ingest"}', '2025-04-01 00:00:00+00', '2025-04-01 00:00:00+00');
INSERT INTO principal_role (realm_id, name, properties, created_at)
    VALUES ('default', 'engineers', '{}', '2025-04-01 00:00:01+00'),
           ('default', 'auditors', '{"ticket": "SEC-12"}', '2025-04-01 00:00:02+00');
INSERT INTO principal_role_grant (realm_id, principal_id, principal_role_id)
    SELECT 'default', p.id, r.id FROM principal p, principal_role r
    WHERE p.name = 'etl' AND r.name = 'engineers';
INSERT INTO catalog_role (realm_id, warehouse_id, name, properties, created_at)
    VALUES ('default', 1, 'readers', '{"purpose": "read-only"}', '2025-04-01 00:00:03+00');
INSERT INTO catalog_role_grant (realm_id, principal_role_id, catalog_role_id)
    SELECT 'default', r.id, c.id FROM principal_role r, catalog_role c
    WHERE r.name = 'engineers' AND c.name = 'readers';
INSERT INTO privilege_grant (realm_id, catalog_role_id, securable, namespace_id, object_id,
        privilege, created_at)
    SELECT 'default', c.id, g.securable, g.namespace_id, g.object_id::uuid, g.privilege,
           '2025-04-01 00:00:04+00'
    FROM catalog_role c,
         (VALUES ('catalog', NULL::bigint, NULL, 'CATALOG_LIST'),
                 ('namespace', 1, NULL, 'NAMESPACE_LIST'),
                 ('table', NULL, '11111111-0000-0000-0000-000000000001', 'TABLE_READ_DATA'),
                 ('view', NULL, '11111111-0000-0000-0000-000000000002', 'VIEW_READ_PROPERTIES'))
         AS g (securable, namespace_id, object_id, privilege)
    WHERE c.name = 'readers';
