-- V10's soft delete: a dropped view waiting for its purge, with a grant that waits with it.
INSERT INTO dropped_object (id, warehouse_id, namespace_levels, name, kind, location, owns_location,
        metadata_location, metadata, created_at, updated_at, dropped_at, dropped_by,
        purge_requested, purge_due)
    SELECT 'aaaaaaaa-0000-0000-0000-000000000001', 1, ARRAY['sales'], 'small_orders', 'view',
           's3://warehouse/upgrade/sales/small_orders', true,
           's3://warehouse/upgrade/sales/small_orders/metadata/00001-2.gz.metadata.json',
           replace(metadata, 'big_orders', 'small_orders'), '2025-10-01 00:00:00+00',
           '2025-10-01 00:00:00+00', '2025-10-02 00:00:00+00', 'etl', true, '2999-01-01 00:00:00+00'
    FROM catalog_object WHERE id = '11111111-0000-0000-0000-000000000002';
INSERT INTO dropped_grant (object_id, realm_id, catalog_role_id, privilege)
    SELECT 'aaaaaaaa-0000-0000-0000-000000000001', 'default', c.id, 'VIEW_READ_PROPERTIES'
    FROM catalog_role c WHERE c.name = 'readers';
