-- caller_access (V7) and the first page of a listing in one round trip, as caller_access_and_object
-- does for loads: the access rows (version not null), then one header row (version and listed
-- null) whose page_limit is the limit the page was read with, or null if the namespace listed does
-- not exist, then the page's names (listed) in order. At most p_max_rows rows in all when it is not
-- null (the Data API returns no more): the page's limit is cut to fit after the access rows, and a
-- page_limit under 2 means the page was not read (a page of one needs a second row to say whether
-- another follows).
--
-- The page is read in chunks of at most 1000, each its own LIMIT: with a larger limit PostgreSQL
-- may sort a namespace of a few thousand children (a sequential scan, then a sort) instead of
-- reading them in order from the listing index, and a chunk's plan stays on the index whatever
-- the page's limit.

CREATE FUNCTION caller_access_and_objects(
    p_realm text, p_principal text, p_all_roles boolean, p_roles text[], p_warehouse bigint,
    p_known_version bigint, p_levels text[], p_kind text, p_after text, p_limit integer,
    p_max_rows integer)
RETURNS TABLE (
    version bigint, principal_role text, catalog_role_id bigint, privilege text, securable text,
    levels text[], object_name text, page_limit integer, listed text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
DECLARE
    v_version bigint;
    v_rows integer;
    v_namespace bigint;
    v_limit integer;
    v_after text := p_after;
    v_chunk text[];
BEGIN
    SELECT a.version INTO v_version FROM access_version a WHERE a.realm_id = p_realm;
    v_version := COALESCE(v_version, 0);
    IF v_version = p_known_version THEN
        version := v_version;
        RETURN NEXT;
        version := NULL;
        v_rows := 1;
    ELSE
        RETURN QUERY SELECT v_version, g.*, NULL::integer, NULL::text
            FROM caller_grants(p_realm, p_principal, p_all_roles, p_roles, p_warehouse) g;
        GET DIAGNOSTICS v_rows = ROW_COUNT;
    END IF;
    SELECT n.id INTO v_namespace FROM namespace n
        WHERE n.warehouse_id = p_warehouse AND n.levels = p_levels;
    IF v_namespace IS NULL THEN
        RETURN NEXT; -- page_limit null: no such namespace
        RETURN;
    END IF;
    v_limit := CASE WHEN p_max_rows IS NULL THEN p_limit
        ELSE least(p_limit, p_max_rows - v_rows - 1) END;
    IF v_limit < 2 THEN
        v_limit := 0;
    END IF;
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
        RETURN QUERY SELECT NULL::bigint, NULL::text, NULL::bigint, NULL::text, NULL::text,
                NULL::text[], NULL::text, NULL::integer, c.name
            FROM unnest(v_chunk) WITH ORDINALITY AS c (name, i) ORDER BY c.i;
        EXIT WHEN cardinality(v_chunk) < least(v_limit, 1000);
        v_limit := v_limit - cardinality(v_chunk);
        v_after := v_chunk[cardinality(v_chunk)];
    END LOOP;
END
$$;

-- The same for the children of a namespace (the top level when p_levels is empty), by their last
-- level: children share their parent's levels, so their order by levels, the order of the index
-- namespace_parent, is the order of their last level.
CREATE FUNCTION caller_access_and_namespaces(
    p_realm text, p_principal text, p_all_roles boolean, p_roles text[], p_warehouse bigint,
    p_known_version bigint, p_levels text[], p_after text, p_limit integer, p_max_rows integer)
RETURNS TABLE (
    version bigint, principal_role text, catalog_role_id bigint, privilege text, securable text,
    levels text[], object_name text, page_limit integer, listed text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
DECLARE
    v_version bigint;
    v_rows integer;
    v_parent bigint;
    v_limit integer;
    v_after text[];
    v_chunk text[];
BEGIN
    SELECT a.version INTO v_version FROM access_version a WHERE a.realm_id = p_realm;
    v_version := COALESCE(v_version, 0);
    IF v_version = p_known_version THEN
        version := v_version;
        RETURN NEXT;
        version := NULL;
        v_rows := 1;
    ELSE
        RETURN QUERY SELECT v_version, g.*, NULL::integer, NULL::text
            FROM caller_grants(p_realm, p_principal, p_all_roles, p_roles, p_warehouse) g;
        GET DIAGNOSTICS v_rows = ROW_COUNT;
    END IF;
    IF cardinality(p_levels) > 0 THEN
        SELECT n.id INTO v_parent FROM namespace n
            WHERE n.warehouse_id = p_warehouse AND n.levels = p_levels;
        IF v_parent IS NULL THEN
            RETURN NEXT; -- page_limit null: no such namespace
            RETURN;
        END IF;
    END IF;
    v_limit := CASE WHEN p_max_rows IS NULL THEN p_limit
        ELSE least(p_limit, p_max_rows - v_rows - 1) END;
    IF v_limit < 2 THEN
        v_limit := 0;
    END IF;
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
        RETURN QUERY SELECT NULL::bigint, NULL::text, NULL::bigint, NULL::text, NULL::text,
                NULL::text[], NULL::text, NULL::integer, c.name
            FROM unnest(v_chunk) WITH ORDINALITY AS c (name, i) ORDER BY c.i;
        EXIT WHEN cardinality(v_chunk) < least(v_limit, 1000);
        v_limit := v_limit - cardinality(v_chunk);
        v_after := p_levels || v_chunk[cardinality(v_chunk)];
    END LOOP;
END
$$;
