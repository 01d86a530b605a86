-- The change-event feed: one row per object a committed change touched, written in the change's own
-- transaction (so an aborted or refused request leaves none, and a committed one always has its
-- events), read back by POST /v1/{prefix}/events and relayed to EventBridge from here (the rows
-- are the relay's outbox).
CREATE TABLE catalog_event (
    -- commit order within a feed: writers of one feed take a transaction-scoped advisory lock just
    -- before they insert their events and hold it until COMMIT, so an id is never handed out
    -- before an earlier one is visible, and a reader paging by id never skips a late commit
    id                   bigserial PRIMARY KEY,
    -- the proposal's event-id, what consumers dedupe on
    event_id             uuid NOT NULL UNIQUE,
    realm_id             text NOT NULL,
    -- the feed: the warehouse of the change; NULL for realm-wide management changes (principals,
    -- principal roles), which every warehouse's feed of the realm shows to access managers. No
    -- foreign key: a warehouse's events outlive it until retention removes them
    warehouse_id         bigint,
    -- API Gateway's request id; a change made outside a request gets one of its own
    request_id           text NOT NULL,
    -- how many events the request's transaction wrote, this one included
    request_event_count  integer NOT NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    actor_principal      text,
    actor_realm          text,
    -- the proposal's operation-type ('create-table', …, 'custom' for Puddle's x-puddle-… types)
    operation_type       text NOT NULL,
    -- the x-puddle-… type of a custom operation, else NULL
    custom_type          text,
    -- 'table', 'view', 'namespace', or NULL for management changes
    object_type          text CHECK (object_type IN ('table', 'view', 'namespace')),
    -- the object's namespace levels and name (NULL for a namespace) after the change
    object_namespace     text[],
    object_name          text,
    -- the Iceberg table-uuid or view-uuid; NULL for namespaces and management changes
    object_uuid          text,
    -- the proposal's operation object, as the feed and the relay serve it (json, not jsonb: kept
    -- as written, its fields in the order of the proposal)
    operation            json NOT NULL,
    -- the relay: NULL until EventBridge (or the twin's queue) accepted the event
    published_at         timestamptz
);

-- the query: a feed's events in id order from a continuation point
CREATE INDEX catalog_event_feed ON catalog_event (warehouse_id, id);
-- the realm-wide management events every feed of the realm shows
CREATE INDEX catalog_event_realm_feed ON catalog_event (realm_id, id) WHERE warehouse_id IS NULL;
-- the relay and its sweep: only what is still to be published, in commit order
CREATE INDEX catalog_event_unpublished ON catalog_event (id) WHERE published_at IS NULL;
-- retention: the oldest events first
CREATE INDEX catalog_event_age ON catalog_event (created_at);

-- The relay's claim: one invocation at a time publishes, so events go out in commit order; a
-- late invocation whose claim ran out cannot mark what another one published.
CREATE TABLE event_relay (
    id             integer PRIMARY KEY CHECK (id = 1),
    claim_id       uuid,
    claimed_until  timestamptz,
    -- when a relay invocation last ran, for the management API and the sweep's log
    last_run_at    timestamptz
);
INSERT INTO event_relay (id) VALUES (1);
