-- V18 adds functions of the write path and, where the server has lz4, compresses new metadata JSON
-- with it, but adds no table or column: there is no new catalog state to add, and the upgrade
-- checks that every earlier row survives it.
SELECT 1;
