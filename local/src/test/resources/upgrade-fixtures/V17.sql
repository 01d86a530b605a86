-- V17 replaces three read functions (their access rows taken from caller_access) and adds two SQL
-- helpers of the listings, but no table or column: there is no new catalog state to add, and the
-- upgrade checks that every earlier row survives it.
SELECT 1;
