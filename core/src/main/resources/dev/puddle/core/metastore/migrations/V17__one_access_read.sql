-- One place decides a caller's access rows: caller_access (V7). The reads that return a table's
-- row (caller_access_and_object, V7) or a listing's first page (caller_access_and_objects,
-- caller_access_and_namespaces, V16) with the access each wrote out its version check and grants
-- again; they now take their access rows from caller_access, with the signatures and rows they had.
--
-- Calling it nests one PL/pgSQL function in another, which costs some 15 us of server time a call
-- with the access kept (a DO loop of 10,000 calls: about 50 us against 35 us for the check written
-- out). A SQL function would be inlined instead but costs more (about 80 us): the one SELECT it
-- must be (a UNION ALL of the version alone and of the grants, each behind a one-time filter so
-- that caller_grants runs only when the version moved) starts a plan of some ten nodes on every
-- call, where caller_access runs one cached lookup.

-- The access rows (kind null), then the table or view's row if there is one (access columns
-- null), for loads, as V7 defined it.
CREATE OR REPLACE FUNCTION caller_access_and_object(
    p_realm text, p_principal text, p_all_roles boolean, p_roles text[], p_warehouse bigint,
    p_known_version bigint, p_levels text[], p_name text, p_known_location text)
RETURNS TABLE (
    version bigint, principal_role text, catalog_role_id bigint, privilege text, securable text,
    levels text[], object_name text, id uuid, kind text, location text, owns_location boolean,
    metadata_location text, metadata text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY SELECT a.*, NULL::uuid, NULL::text, NULL::text, NULL::boolean, NULL::text,
            NULL::text
        FROM caller_access(
            p_realm, p_principal, p_all_roles, p_roles, p_warehouse, p_known_version) a;
    RETURN QUERY SELECT NULL::bigint, NULL::text, NULL::bigint, NULL::text, NULL::text,
            NULL::text[], NULL::text, o.id, o.kind, o.location, o.owns_location,
            o.metadata_location,
            CASE WHEN o.metadata_location = p_known_location THEN NULL ELSE o.metadata END
        FROM catalog_object o JOIN namespace n ON n.id = o.namespace_id
        WHERE n.warehouse_id = p_warehouse AND n.levels = p_levels AND o.name = p_name;
END
$$;

-- How many names a listing's first page may hold: p_limit, cut to fit after the p_access_rows
-- access rows and the header row when the statement returns at most p_max_rows rows (least leaves
-- out a null bound); 0 when that is under 2, as a page of one needs a second row to say whether
-- another follows. A SQL function of one expression: inlined where the listings assign it.
CREATE FUNCTION listing_page_limit(p_limit integer, p_max_rows integer, p_access_rows integer)
RETURNS integer
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN least(p_limit, p_max_rows - p_access_rows - 1) < 2 THEN 0
        ELSE least(p_limit, p_max_rows - p_access_rows - 1) END
$$;

-- A listing's rows of the names p_names (listed), in their order, every other column null.
-- A SQL function of one SELECT: inlined where the listings call it.
CREATE FUNCTION listed_rows(p_names text[])
RETURNS TABLE (
    version bigint, principal_role text, catalog_role_id bigint, privilege text, securable text,
    levels text[], object_name text, page_limit integer, listed text)
LANGUAGE sql IMMUTABLE AS $$
    SELECT NULL::bigint, NULL::text, NULL::bigint, NULL::text, NULL::text, NULL::text[],
        NULL::text, NULL::integer, c.name
    FROM unnest(p_names) WITH ORDINALITY AS c (name, i) ORDER BY c.i
$$;

-- The access rows (version not null), then a listing's header row and first page, as V16 defined
-- them: see V16 for the rows, the row bound p_max_rows and why the page is read in chunks.
CREATE OR REPLACE FUNCTION caller_access_and_objects(
    p_realm text, p_principal text, p_all_roles boolean, p_roles text[], p_warehouse bigint,
    p_known_version bigint, p_levels text[], p_kind text, p_after text, p_limit integer,
    p_max_rows integer)
RETURNS TABLE (
    version bigint, principal_role text, catalog_role_id bigint, privilege text, securable text,
    levels text[], object_name text, page_limit integer, listed text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
DECLARE
    v_rows integer;
    v_namespace bigint;
    v_limit integer;
    v_after text := p_after;
    v_chunk text[];
BEGIN
    RETURN QUERY SELECT a.*, NULL::integer, NULL::text
        FROM caller_access(
            p_realm, p_principal, p_all_roles, p_roles, p_warehouse, p_known_version) a;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    SELECT n.id INTO v_namespace FROM namespace n
        WHERE n.warehouse_id = p_warehouse AND n.levels = p_levels;
    IF v_namespace IS NULL THEN
        RETURN NEXT; -- page_limit null: no such namespace
        RETURN;
    END IF;
    v_limit := listing_page_limit(p_limit, p_max_rows, v_rows);
    page_limit := v_limit;
    RETURN NEXT;
    page_limit := NULL;
    WHILE v_limit > 0 LOOP
        -- two statements, not one with "IS NULL OR": a generic plan of that one could not start
        -- its index scan after the token
        IF v_after IS NULL THEN
            v_chunk := ARRAY(SELECT o.name FROM catalog_object o
                WHERE o.namespace_id = v_namespace AND o.kind = p_kind
                ORDER BY o.name LIMIT least(v_limit, 1000));
        ELSE
            v_chunk := ARRAY(SELECT o.name FROM catalog_object o
                WHERE o.namespace_id = v_namespace AND o.kind = p_kind AND o.name > v_after
                ORDER BY o.name LIMIT least(v_limit, 1000));
        END IF;
        RETURN QUERY SELECT * FROM listed_rows(v_chunk);
        EXIT WHEN cardinality(v_chunk) < least(v_limit, 1000);
        v_limit := v_limit - cardinality(v_chunk);
        v_after := v_chunk[cardinality(v_chunk)];
    END LOOP;
END
$$;

-- The same for the children of a namespace, as V16 defined it.
CREATE OR REPLACE FUNCTION caller_access_and_namespaces(
    p_realm text, p_principal text, p_all_roles boolean, p_roles text[], p_warehouse bigint,
    p_known_version bigint, p_levels text[], p_after text, p_limit integer, p_max_rows integer)
RETURNS TABLE (
    version bigint, principal_role text, catalog_role_id bigint, privilege text, securable text,
    levels text[], object_name text, page_limit integer, listed text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
DECLARE
    v_rows integer;
    v_parent bigint;
    v_limit integer;
    v_after text[];
    v_chunk text[];
BEGIN
    RETURN QUERY SELECT a.*, NULL::integer, NULL::text
        FROM caller_access(
            p_realm, p_principal, p_all_roles, p_roles, p_warehouse, p_known_version) a;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    IF cardinality(p_levels) > 0 THEN
        SELECT n.id INTO v_parent FROM namespace n
            WHERE n.warehouse_id = p_warehouse AND n.levels = p_levels;
        IF v_parent IS NULL THEN
            RETURN NEXT; -- page_limit null: no such namespace
            RETURN;
        END IF;
    END IF;
    v_limit := listing_page_limit(p_limit, p_max_rows, v_rows);
    page_limit := v_limit;
    RETURN NEXT;
    page_limit := NULL;
    IF p_after IS NOT NULL THEN
        v_after := p_levels || p_after;
    END IF;
    WHILE v_limit > 0 LOOP
        -- one statement per case, each a range of the index namespace_parent: "IS NOT DISTINCT
        -- FROM" or "IS NULL OR" would scan the warehouse's every namespace
        IF v_parent IS NULL AND v_after IS NULL THEN
            v_chunk := ARRAY(SELECT n.levels[cardinality(n.levels)] FROM namespace n
                WHERE n.warehouse_id = p_warehouse AND n.parent_id IS NULL
                ORDER BY n.levels LIMIT least(v_limit, 1000));
        ELSIF v_parent IS NULL THEN
            v_chunk := ARRAY(SELECT n.levels[cardinality(n.levels)] FROM namespace n
                WHERE n.warehouse_id = p_warehouse AND n.parent_id IS NULL AND n.levels > v_after
                ORDER BY n.levels LIMIT least(v_limit, 1000));
        ELSIF v_after IS NULL THEN
            v_chunk := ARRAY(SELECT n.levels[cardinality(n.levels)] FROM namespace n
                WHERE n.warehouse_id = p_warehouse AND n.parent_id = v_parent
                ORDER BY n.levels LIMIT least(v_limit, 1000));
        ELSE
            v_chunk := ARRAY(SELECT n.levels[cardinality(n.levels)] FROM namespace n
                WHERE n.warehouse_id = p_warehouse AND n.parent_id = v_parent AND n.levels > v_after
                ORDER BY n.levels LIMIT least(v_limit, 1000));
        END IF;
        RETURN QUERY SELECT * FROM listed_rows(v_chunk);
        EXIT WHEN cardinality(v_chunk) < least(v_limit, 1000);
        v_limit := v_limit - cardinality(v_chunk);
        v_after := p_levels || v_chunk[cardinality(v_chunk)];
    END LOOP;
END
$$;
