-- V19 adds two read functions (a listing's first page with its names in one array) and no table
-- or column: there is no new catalog state to add, and the upgrade checks that every earlier row
-- survives it.
SELECT 1;
