-- V8's stored scan plans: a plan of the table with two pages of tasks.
INSERT INTO scan_plan (id, realm_id, principal, warehouse_id, table_name, request, created_at,
        expires_at)
    VALUES ('88888888-0000-0000-0000-000000000001', 'default', 'etl', 1, 'sales.orders',
            '{"snapshot-id":3051729675574597004,"select":["id"]}', '2025-08-01 00:00:00+00',
            '2999-01-01 00:00:00+00');
INSERT INTO scan_plan_page (plan_id, page, body)
    VALUES ('88888888-0000-0000-0000-000000000001', 0, '{"file-scan-tasks":[]}'),
           ('88888888-0000-0000-0000-000000000001', 1, '{"file-scan-tasks":[],"plan-tasks":[]}');
