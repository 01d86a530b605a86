-- The write path's statements as functions, and its metadata JSON compressed with lz4 where the
-- server has it.
--
-- A create's insert as one function call: the warehouse's location lock, the overlap checks and the
-- insert, which were two statements (the lock, then one of some 1,500 characters with 30
-- parameters). Puddle's connections never prepare a statement on the server (pgjdbc
-- prepareThreshold=0, so that RDS Proxy never pins), so PostgreSQL parsed and planned that
-- statement anew on every create: planning it took 0.31 ms of server time and running it 0.18 ms
-- (pg_stat_statements, 200 creates). A PL/pgSQL function keeps the plans of its statements for the
-- life of the server connection, which is no session state a client sees (RDS Proxy does not pin
-- for it), and its call is a statement of one line that plans in microseconds.
--
-- The first location that an object location p_location (normalized, no trailing slash) of object
-- p_id would overlap, as what (1: a table or view, 2: a dropped one kept for undrop, 3: a
-- namespace) and location; no row if none. An object overlaps when its location is the new one or
-- one of its parents (p_ancestors, the new one included) or lies below it; a namespace when its
-- location is the new one or lies below it. "Below" is the range [p_location || '/', p_location ||
-- '0') of the text_pattern_ops indexes: exactly the strings that start with p_location || '/' ('0'
-- follows '/' in byte order), with no LIKE pattern, whose prefix a cached generic plan could not
-- use. Call it under the warehouse's location lock, in a statement that began once it was held.
-- A SQL function of one SELECT: inlined where it is called, so create_catalog_object keeps one plan
-- of it (a nested PL/pgSQL call cost some 0.1 ms).
CREATE FUNCTION object_location_conflict(
    p_warehouse bigint, p_id uuid, p_location text, p_ancestors text[])
RETURNS TABLE (what integer, location text)
LANGUAGE sql STABLE AS $$
    SELECT c.what, c.location FROM (
        (SELECT 1 AS what, o.location FROM catalog_object o
            WHERE o.warehouse_id = p_warehouse AND o.owns_location AND o.id <> p_id
                AND o.location = ANY (p_ancestors)
            LIMIT 1)
        UNION ALL (SELECT 1, o.location FROM catalog_object o
            WHERE o.warehouse_id = p_warehouse AND o.owns_location AND o.id <> p_id
                AND o.location ~>=~ (p_location || '/') AND o.location ~<~ (p_location || '0')
            LIMIT 1)
        UNION ALL (SELECT 2, d.location FROM dropped_object d
            WHERE d.warehouse_id = p_warehouse AND d.owns_location AND d.id <> p_id
                AND d.location = ANY (p_ancestors)
            LIMIT 1)
        UNION ALL (SELECT 2, d.location FROM dropped_object d
            WHERE d.warehouse_id = p_warehouse AND d.owns_location AND d.id <> p_id
                AND d.location ~>=~ (p_location || '/') AND d.location ~<~ (p_location || '0')
            LIMIT 1)
        UNION ALL (SELECT 3, n.location FROM namespace n
            WHERE n.warehouse_id = p_warehouse AND n.location = p_location
            LIMIT 1)
        UNION ALL (SELECT 3, n.location FROM namespace n
            WHERE n.warehouse_id = p_warehouse
                AND n.location ~>=~ (p_location || '/') AND n.location ~<~ (p_location || '0')
            LIMIT 1)) c
    ORDER BY c.what LIMIT 1
$$;

-- Inserts a table or view's row. For an object that owns its location, first the warehouse's location
-- lock, then the overlap checks: the function is VOLATILE, so each statement in it takes a new
-- snapshot (READ COMMITTED), and the checks, which begin once the lock is held, see every create
-- that held it before, as the insert's own statement did when the lock was a statement of its own.
-- Returns one row: the namespace's id (null: no such namespace, nothing inserted), the first
-- conflict (null: none), and whether the row went in (false with neither: the name is taken).
CREATE FUNCTION create_catalog_object(
    p_warehouse bigint, p_levels text[], p_lock_class integer, p_lock_key integer,
    p_id uuid, p_name text, p_kind text, p_location text, p_owns_location boolean,
    p_metadata_location text, p_metadata text, p_ancestors text[])
RETURNS TABLE (found_namespace bigint, conflict_what integer, conflict_location text, created boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_namespace bigint;
BEGIN
    IF p_owns_location THEN
        -- a statement of its own: the statements after it see every create that held it before
        PERFORM pg_advisory_xact_lock(p_lock_class, p_lock_key);
    END IF;
    SELECT n.id INTO v_namespace FROM namespace n
        WHERE n.warehouse_id = p_warehouse AND n.levels = p_levels;
    found_namespace := v_namespace;
    created := false;
    IF v_namespace IS NULL THEN
        RETURN NEXT;
        RETURN;
    END IF;
    IF p_owns_location THEN
        SELECT c.what, c.location INTO conflict_what, conflict_location
            FROM object_location_conflict(p_warehouse, p_id, p_location, p_ancestors) c;
        IF conflict_what IS NOT NULL THEN
            RETURN NEXT;
            RETURN;
        END IF;
    END IF;
    INSERT INTO catalog_object (id, warehouse_id, namespace_id, name, kind, location,
            owns_location, metadata_location, metadata)
        VALUES (p_id, p_warehouse, v_namespace, p_name, p_kind, p_location, p_owns_location,
            p_metadata_location, p_metadata)
        ON CONFLICT (namespace_id, name) DO NOTHING;
    created := FOUND;
    RETURN NEXT;
END
$$;

-- An idempotency key's write (IdempotencyKeys), in one call whose plans the connection keeps: the
-- claim a keyed change makes as its transaction's last statement (p_apply true), planned 0.16 to
-- 0.24 ms on every create and commit as the statement it was, or the final response an attempt
-- stores once it has one (p_apply false). Both first delete a few long-expired keys (at most 20,
-- taken with SKIP LOCKED, so two writers never wait for each other there), never the key written.
-- An attempt takes the key's row if it owns it already, the key outlived its lifetime (p_lifetime,
-- seconds), or its attempt ended without a response and without applying anything.
--
-- A claim is made only if the transaction wrote something (it comes last, so its transaction id
-- tells): it then marks the key applied, with the lease p_lease (seconds) and the response if
-- there is one. A finish ends the lease and, for an attempt other than the one that applied,
-- leaves the key not applied. Returns whether the transaction wrote (always true for a finish) and
-- whether the key's row is now this attempt's.
CREATE FUNCTION write_idempotency_key(
    p_apply boolean, p_lifetime double precision, p_realm text, p_key uuid, p_request_hash bytea,
    p_operation text, p_attempt uuid, p_lease double precision, p_status integer,
    p_headers text, p_body bytea)
RETURNS TABLE (wrote boolean, taken boolean)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    wrote := NOT p_apply OR txid_current_if_assigned() IS NOT NULL;
    taken := false;
    IF NOT wrote THEN
        RETURN NEXT; -- a transaction that changed nothing claims nothing
        RETURN;
    END IF;
    DELETE FROM idempotency_key WHERE ctid = ANY (ARRAY(
        SELECT e.ctid FROM idempotency_key e
        WHERE e.created_at < now() - make_interval(secs => p_lifetime) - interval '1 hour'
            AND NOT (e.realm_id = p_realm AND e.key = p_key)
        ORDER BY e.created_at LIMIT 20 FOR UPDATE SKIP LOCKED));
    INSERT INTO idempotency_key AS k (realm_id, key, request_hash, operation, attempt,
            lease_until, applied, status, headers, body)
        VALUES (p_realm, p_key, p_request_hash, p_operation, p_attempt,
            now() + make_interval(secs => p_lease), p_apply, p_status, p_headers, p_body)
        ON CONFLICT (realm_id, key) DO UPDATE SET
            request_hash = EXCLUDED.request_hash, operation = EXCLUDED.operation,
            attempt = EXCLUDED.attempt, lease_until = EXCLUDED.lease_until,
            created_at = CASE WHEN k.created_at < now() - make_interval(secs => p_lifetime)
                THEN now() ELSE k.created_at END,
            applied = p_apply OR (k.attempt = EXCLUDED.attempt AND k.applied),
            status = EXCLUDED.status, headers = EXCLUDED.headers, body = EXCLUDED.body
        WHERE k.attempt = EXCLUDED.attempt
            OR k.created_at < now() - make_interval(secs => p_lifetime)
            OR (k.status IS NULL AND NOT k.applied AND k.lease_until < now()
                AND k.request_hash = EXCLUDED.request_hash);
    taken := FOUND;
    RETURN NEXT;
END
$$;

-- The table or view of a name locked for the transaction (FOR UPDATE), as a commit locks it before
-- checking its requirements: catalog_object_named (V6) with the row lock, its metadata JSON left
-- out when its metadata location is p_known_location. A statement with a join planned anew on
-- every commit (0.11-0.15 ms) became a call whose plan the connection keeps. VOLATILE, as a
-- function that locks rows must be; a lock that waited sees the row as the commit that held it
-- left it, as the statement did. With p_only_known, the row is locked only while its metadata
-- location is p_known_location, the version the commit checked its requirements against: a commit
-- that waited for another to release the row finds it moved and returns at once holding nothing,
-- rather than holding the lock while it reads, parses and checks the new version (under 16 writers
-- on one table, some 12 such doomed commits queued behind each one that landed).
CREATE FUNCTION catalog_object_locked(
    p_warehouse bigint, p_levels text[], p_name text, p_known_location text,
    p_only_known boolean)
RETURNS TABLE (
    id uuid, kind text, location text, owns_location boolean, metadata_location text,
    metadata text)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    SELECT o.id, o.kind, o.location, o.owns_location, o.metadata_location,
        CASE WHEN o.metadata_location = p_known_location THEN NULL ELSE o.metadata END
    FROM catalog_object o JOIN namespace n ON n.id = o.namespace_id
    WHERE n.warehouse_id = p_warehouse AND n.levels = p_levels AND o.name = p_name
        AND (NOT p_only_known OR o.metadata_location = p_known_location)
    FOR UPDATE OF o;
END
$$;

-- Where a table or view would be created (Namespaces.createSite): the namespace's location (a row
-- only if the namespace exists) and the kind of an object already of that name. A join planned
-- anew on every create (0.11-0.13 ms, to run it 0.02 ms) became a call whose plan is kept.
CREATE FUNCTION create_site(p_warehouse bigint, p_levels text[], p_name text)
RETURNS TABLE (namespace_location text, existing_kind text)
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN QUERY
    SELECT n.location, o.kind FROM namespace n
        LEFT JOIN catalog_object o ON o.namespace_id = n.id AND o.name = p_name
    WHERE n.warehouse_id = p_warehouse AND n.levels = p_levels;
END
$$;

-- A table's current metadata JSON is stored with its pointer, so every commit compresses it anew
-- (TOAST). With pglz, PostgreSQL's default, that was most of a commit's server time: the swap's
-- UPDATE ran 0.75-0.93 ms for a 130 KB metadata JSON (200 raw commits, pg_stat_statements), the
-- other statements of the commit 0.1 ms or less each. lz4 compresses the same JSON about six times
-- faster (PostgreSQL 15, a 52 KB metadata JSON of 88 snapshots, 300 updates: 0.46-0.50 ms with
-- pglz, 0.07-0.08 ms with lz4; stored 10.8 KB and 10.1 KB) and decompresses it faster for loads.
-- Where the server was built without lz4 (the local twin's embedded binaries) nothing changes.
-- New values only: rows keep their pglz values, which read as before, until their next commit.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings
            WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
        ALTER TABLE catalog_object ALTER COLUMN metadata SET COMPRESSION lz4;
        ALTER TABLE dropped_object ALTER COLUMN metadata SET COMPRESSION lz4;
    END IF;
END
$$;
