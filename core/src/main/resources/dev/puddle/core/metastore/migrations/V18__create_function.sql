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
