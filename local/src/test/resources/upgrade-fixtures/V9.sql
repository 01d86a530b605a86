-- V9's maintenance runs: a finished one with its counts and the files it noted, and a queued one.
INSERT INTO maintenance_job (id, realm_id, warehouse_id, table_id, identifier, trigger, state, phase,
        resume_at, attempts, snapshots_expired, deleted_data_files, deleted_manifests,
        deleted_bytes, created_at, updated_at, sent_at, finished_at)
    VALUES ('99999999-0000-0000-0000-000000000001', 'default', 1,
            '11111111-0000-0000-0000-000000000001', 'sales.orders', 'schedule', 'done', 'done', NULL,
            1, 3, 4, 2, 123456, '2025-09-01 00:00:00+00', '2025-09-01 00:05:00+00',
            '2025-09-01 00:00:01+00', '2025-09-01 00:05:00+00'),
           ('99999999-0000-0000-0000-000000000002', 'default', 1,
            '11111111-0000-0000-0000-000000000003', 'sales.eu.registered', 'commit', 'queued',
            'expire', NULL, 0, 0, 0, 0, 0, '2025-09-02 00:00:00+00', '2025-09-02 00:00:00+00', NULL,
            NULL);
INSERT INTO maintenance_file (job_id, path, kind, size)
    VALUES ('99999999-0000-0000-0000-000000000001',
            's3://warehouse/upgrade/sales/orders/data/0001.parquet', 'data', 100000),
           ('99999999-0000-0000-0000-000000000001',
            's3://warehouse/upgrade/sales/orders/metadata/snap-1.avro', 'manifest-list', 0);
