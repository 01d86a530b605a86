-- V11's change feed: a table's commit event (published) and a realm-wide management event (not yet
-- published).
INSERT INTO catalog_event (event_id, realm_id, warehouse_id, request_id, request_event_count,
        created_at, actor_principal, actor_realm, operation_type, custom_type, object_type,
        object_namespace, object_name, object_uuid, operation, published_at)
    VALUES ('bbbbbbbb-0000-0000-0000-000000000001', 'default', 1, 'req-1', 1,
            '2025-11-01 00:00:00+00', 'etl', 'default', 'update-table', NULL, 'table',
            ARRAY['sales'], 'orders', '9c12d441-03fe-4693-9a96-a0705ddf69c1',
            '{"operation-type":"update-table","identifier":{"namespace":["sales"],"name":"orders"}}',
            '2025-11-01 00:00:01+00'),
           ('bbbbbbbb-0000-0000-0000-000000000002', 'default', NULL, 'req-2', 1,
            '2025-11-01 00:01:00+00', 'root', 'default', 'custom', 'x-puddle-create-principal',
            NULL, NULL, NULL, NULL, '{"operation-type":"custom","custom-type":"x-puddle-create-principal"}',
            NULL);
