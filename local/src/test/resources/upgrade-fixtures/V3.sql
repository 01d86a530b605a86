-- V3's idempotency keys: one whose attempt finished with its response, one still in flight.
INSERT INTO idempotency_key (realm_id, key, request_hash, operation, attempt, lease_until, applied,
        status, headers, body, created_at)
    VALUES ('default', '33333333-0000-0000-0000-000000000001', sha256('create sales.orders'),
            'createTable', '33333333-0000-0000-0000-0000000000a1', '2025-03-01 00:00:30+00', true,
            200, '{"content-type":"application/json"}', '\x1f8b0800000000000003abae050043bfa6a302000000',
            '2025-03-01 00:00:00+00'),
           ('default', '33333333-0000-0000-0000-000000000002', sha256('drop sales.old'),
            'dropTable', '33333333-0000-0000-0000-0000000000a2', '2025-03-01 00:01:30+00', false,
            NULL, NULL, NULL, '2025-03-01 00:01:00+00');
