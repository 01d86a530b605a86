-- V18 adds two functions of the create path (create_catalog_object, object_location_conflict) but no
-- table or column: there is no new catalog state to add, and the upgrade checks that every earlier
-- row survives it.
SELECT 1;
