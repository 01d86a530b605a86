-- The two reads of nearly every request, as PL/pgSQL functions: PostgreSQL keeps the plans of a
-- function's statements for the life of the database session, while a statement sent as it is
-- (no server-side prepared statements: a connection proxy would pin them) is planned every time,
-- which was most of these reads' cost. A later migration that changes the tables they read
-- replaces them (CREATE OR REPLACE FUNCTION) in the same script.

-- A caller's effective grants in one warehouse, as AccessQuery reads them. One row per activated
-- principal role and catalog role of the warehouse it holds and grant of that catalog role, with
-- the path of the grant's securable; a role without catalog roles there, or a catalog role
-- without grants, still gives a row, with nulls. Each step is materialized: planned on its own,
-- the query plans in a third of the time of one seven-table join.
CREATE FUNCTION caller_grants(
    p_realm text, p_principal text, p_all_roles boolean, p_roles text[], p_warehouse bigint)
RETURNS TABLE (
    principal_role text, catalog_role_id bigint, privilege text, securable text,
    levels text[], object_name text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH r AS MATERIALIZED (
        SELECT pr.id, pr.name FROM principal p
        JOIN principal_role_grant prg ON prg.principal_id = p.id
        JOIN principal_role pr ON pr.id = prg.principal_role_id
        WHERE p.realm_id = p_realm AND p.name = p_principal
            AND (p_all_roles OR pr.name = ANY (p_roles))),
    c AS MATERIALIZED (
        SELECT r.name, cr.id FROM r
        LEFT JOIN (catalog_role_grant crg JOIN catalog_role cr
            ON cr.id = crg.catalog_role_id AND cr.warehouse_id = p_warehouse)
        ON crg.principal_role_id = r.id),
    g AS MATERIALIZED (
        SELECT c.name, c.id, g.privilege, g.securable, g.namespace_id, g.object_id
        FROM c LEFT JOIN privilege_grant g ON g.catalog_role_id = c.id)
    SELECT g.name, g.id, g.privilege, g.securable, COALESCE(n.levels, objn.levels), o.name
    FROM g
    LEFT JOIN namespace n ON n.id = g.namespace_id
    LEFT JOIN catalog_object o ON o.id = g.object_id
    LEFT JOIN namespace objn ON objn.id = o.namespace_id;
END
$$;

-- The table or view of a name, as loads and commits read it; its metadata JSON left out (null)
-- when its metadata location is p_known_location, a version the caller has kept.
CREATE FUNCTION catalog_object_named(
    p_warehouse bigint, p_levels text[], p_name text, p_known_location text)
RETURNS TABLE (
    id uuid, kind text, location text, owns_location boolean, metadata_location text,
    metadata text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    SELECT o.id, o.kind, o.location, o.owns_location, o.metadata_location,
        CASE WHEN o.metadata_location = p_known_location THEN NULL ELSE o.metadata END
    FROM catalog_object o JOIN namespace n ON n.id = o.namespace_id
    WHERE n.warehouse_id = p_warehouse AND n.levels = p_levels AND o.name = p_name;
END
$$;
