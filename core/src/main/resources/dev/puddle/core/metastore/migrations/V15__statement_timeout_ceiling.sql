-- A ceiling on every statement of Puddle's database login, applied by the server when a session
-- starts: a statement whose client has gone (a function cut off, a socket timed out at the
-- request's deadline) stops within a minute instead of holding its locks. It is a default of the
-- role in this database, not a SET on a connection, so RDS Proxy sees no session state and keeps
-- multiplexing (docs/operations.md#rds-proxy-and-pinning). The request's own deadline is kept by the client:
-- the socket timeout of a JDBC connection, SET LOCAL statement_timeout on the Data API, where no
-- proxy watches.
-- 60 s: twice API Gateway's 30 s, above anything a request or a worker's chunk runs; a migration
-- statement that needs longer (an index on a very large table) raises it first, by hand.
DO $$
BEGIN
  EXECUTE format('ALTER ROLE %I IN DATABASE %I SET statement_timeout = %L',
                 current_user, current_database(), '60s');
END
$$;
