-- What a caller may do follows only from the rows of the tables below. Every change to them bumps
-- the realm's access version in the same transaction (row triggers, so the foreign keys' cascades
-- bump it too), and a read of the version and the grants in one statement sees both before or
-- both after any change. An execution environment may therefore keep a caller's access and use
-- it for as long as the version it was read at is the realm's version: each request still reads
-- the version, so a revoked grant stops working on the next request, without reading the grants.

-- no foreign key to realm: deleting a realm cascades to its grants, whose triggers bump this row
CREATE TABLE access_version (
    realm_id  text PRIMARY KEY,
    version   bigint NOT NULL
);

CREATE FUNCTION bump_access_version() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_realm text;
BEGIN
    IF TG_TABLE_NAME = 'catalog_object' THEN
        -- a rename moves the grants on the object to its new name
        SELECT w.realm_id INTO v_realm FROM warehouse w WHERE w.id = NEW.warehouse_id;
    ELSIF TG_OP = 'DELETE' THEN
        v_realm := OLD.realm_id;
    ELSE
        v_realm := NEW.realm_id;
    END IF;
    INSERT INTO access_version AS a (realm_id, version) VALUES (v_realm, 1)
        ON CONFLICT (realm_id) DO UPDATE SET version = a.version + 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER principal_access AFTER INSERT OR DELETE OR UPDATE OF realm_id, name
    ON principal FOR EACH ROW EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER principal_role_access AFTER INSERT OR DELETE OR UPDATE OF realm_id, name
    ON principal_role FOR EACH ROW EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER catalog_role_access AFTER INSERT OR DELETE OR UPDATE OF realm_id, warehouse_id, name
    ON catalog_role FOR EACH ROW EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER principal_role_grant_access AFTER INSERT OR UPDATE OR DELETE
    ON principal_role_grant FOR EACH ROW EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER catalog_role_grant_access AFTER INSERT OR UPDATE OR DELETE
    ON catalog_role_grant FOR EACH ROW EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER privilege_grant_access AFTER INSERT OR UPDATE OR DELETE
    ON privilege_grant FOR EACH ROW EXECUTE FUNCTION bump_access_version();
-- commits update other columns of catalog_object and fire nothing
CREATE TRIGGER catalog_object_access AFTER UPDATE OF warehouse_id, namespace_id, name
    ON catalog_object FOR EACH ROW EXECUTE FUNCTION bump_access_version();

-- A caller's grants in one warehouse as caller_grants (V6) gives them, each row with the realm's
-- access version; or, when that version is p_known_version, a single row of the version alone
-- (principal_role null): the access kept at that version is current.
CREATE FUNCTION caller_access(
    p_realm text, p_principal text, p_all_roles boolean, p_roles text[], p_warehouse bigint,
    p_known_version bigint)
RETURNS TABLE (
    version bigint, principal_role text, catalog_role_id bigint, privilege text, securable text,
    levels text[], object_name text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
DECLARE
    v_version bigint;
BEGIN
    SELECT a.version INTO v_version FROM access_version a WHERE a.realm_id = p_realm;
    v_version := COALESCE(v_version, 0);
    IF v_version = p_known_version THEN
        version := v_version;
        RETURN NEXT;
    ELSE
        RETURN QUERY SELECT v_version, g.*
            FROM caller_grants(p_realm, p_principal, p_all_roles, p_roles, p_warehouse) g;
    END IF;
END
$$;

-- caller_access and catalog_object_named (V6) in one round trip, for loads: the access rows (kind
-- null), then the object's row if there is one (access columns null). Both are written out here
-- rather than called: a nested call costs as much as the statement.
CREATE FUNCTION caller_access_and_object(
    p_realm text, p_principal text, p_all_roles boolean, p_roles text[], p_warehouse bigint,
    p_known_version bigint, p_levels text[], p_name text, p_known_location text)
RETURNS TABLE (
    version bigint, principal_role text, catalog_role_id bigint, privilege text, securable text,
    levels text[], object_name text, id uuid, kind text, location text, owns_location boolean,
    metadata_location text, metadata text)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
DECLARE
    v_version bigint;
BEGIN
    SELECT a.version INTO v_version FROM access_version a WHERE a.realm_id = p_realm;
    v_version := COALESCE(v_version, 0);
    IF v_version = p_known_version THEN
        version := v_version;
        RETURN NEXT;
        version := NULL;
    ELSE
        RETURN QUERY SELECT v_version, g.*, NULL::uuid, NULL::text, NULL::text, NULL::boolean,
                NULL::text, NULL::text
            FROM caller_grants(p_realm, p_principal, p_all_roles, p_roles, p_warehouse) g;
    END IF;
    RETURN QUERY SELECT NULL::bigint, NULL::text, NULL::bigint, NULL::text, NULL::text,
            NULL::text[], NULL::text, o.id, o.kind, o.location, o.owns_location,
            o.metadata_location,
            CASE WHEN o.metadata_location = p_known_location THEN NULL ELSE o.metadata END
        FROM catalog_object o JOIN namespace n ON n.id = o.namespace_id
        WHERE n.warehouse_id = p_warehouse AND n.levels = p_levels AND o.name = p_name;
END
$$;
