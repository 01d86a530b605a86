-- V12's submitted scan plans: a plan planned by the planning function, its job still queued, and
-- its sibling whose pages the worker stored (done).
INSERT INTO scan_plan (id, realm_id, principal, warehouse_id, table_name, request, created_at,
        expires_at)
    VALUES ('12121212-0000-0000-0000-000000000001', 'default', 'etl', 1, 'sales.orders',
            '{"select":["id"]}', '2025-10-01 00:00:00+00', '2999-01-01 00:00:00+00'),
           ('12121212-0000-0000-0000-000000000002', 'default', 'etl', 1, 'sales.orders',
            '{}', '2025-10-01 00:00:00+00', '2999-01-01 00:00:00+00');
INSERT INTO scan_plan_job (plan_id, metadata_location, tasks_per_page, state, phase, attempts,
        created_at, updated_at, sent_at)
    VALUES ('12121212-0000-0000-0000-000000000001',
            's3://warehouse/sales/orders/metadata/00003-a.metadata.json', 100, 'queued', 'plan', 0,
            '2025-10-01 00:00:00+00', '2025-10-01 00:00:00+00', NULL),
           ('12121212-0000-0000-0000-000000000002',
            's3://warehouse/sales/orders/metadata/00003-a.metadata.json', 100, 'done', 'done', 1,
            '2025-10-01 00:00:00+00', '2025-10-01 00:01:00+00', '2025-10-01 00:00:01+00');
INSERT INTO scan_plan_page (plan_id, page, body)
    VALUES ('12121212-0000-0000-0000-000000000002', 0, '{"file-scan-tasks":[]}');
