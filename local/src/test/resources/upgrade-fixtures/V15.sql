-- V15 sets a statement_timeout ceiling on Puddle's database role and adds no table or column:
-- there is no new catalog state to add, and the upgrade checks that every earlier row survives it.
SELECT 1;
