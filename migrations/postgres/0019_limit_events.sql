-- Cluster mode (issue 32): the per-address limits that guard secrets count on every node together
-- (crates/server/src/shared_counts.rs). One row per event: a room lookup that found nothing
-- (`lookup_miss`, by client address), an attempt at a password (`password`, by username, username and
-- address, or device). Rows older than the longest window (15 minutes) are deleted by every node's upkeep.
-- A single node counts in memory and never writes here.
CREATE TABLE limit_events (
    kind  TEXT NOT NULL,
    key   TEXT NOT NULL,
    -- When it happened, Unix ms by the database's clock (the same for every node).
    at_ms BIGINT NOT NULL
);
CREATE INDEX limit_events_by_key ON limit_events (kind, key, at_ms);
CREATE INDEX limit_events_by_age ON limit_events (at_ms);
