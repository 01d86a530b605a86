-- V2 gave purge jobs their checkpoint (phase, position, counts, send and claim times) and the
-- files outside a location: a job half way through, claimed, with files noted outside.
INSERT INTO purge_job (object_id, realm_id, warehouse_id, kind, identifier, location, owns_location,
        metadata_location, state, attempts, created_at, updated_at, phase, resume_at,
        deleted_files, skipped_files, sent_at, claim_id, claimed_until)
    VALUES ('22222222-0000-0000-0000-0000000000d2', 'default', 1, 'table', 'sales.eu.returns',
            's3://warehouse/upgrade/sales-eu/returns', true,
            's3://warehouse/upgrade/sales-eu/returns/metadata/00001-2.metadata.json', 'running', 1,
            '2025-02-01 00:00:00+00', '2025-02-01 00:01:00+00', 'outside',
            's3://elsewhere/returns/data/0001.parquet', 1500, 2, '2025-02-01 00:00:01+00',
            '22222222-0000-0000-0000-0000000000c1', '2025-02-01 00:15:00+00');
UPDATE purge_job SET phase = 'done', state = 'done', finished_at = '2025-02-01 00:02:00+00',
        deleted_files = 12
    WHERE object_id = '11111111-0000-0000-0000-0000000000d1';
INSERT INTO purge_outside_file (job_id, path)
    VALUES ('22222222-0000-0000-0000-0000000000d2', 's3://elsewhere/returns/data/0001.parquet'),
           ('22222222-0000-0000-0000-0000000000d2', 's3://elsewhere/returns/data/0002.parquet');
