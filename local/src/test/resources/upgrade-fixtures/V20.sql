-- V20 adds a function of the write path (a change's events in one call) and no table or column:
-- there is no new catalog state to add, and the upgrade checks that every earlier row survives
-- it.
SELECT 1;
