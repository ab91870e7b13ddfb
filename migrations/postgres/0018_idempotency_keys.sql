-- Idempotency keys (issue 35): a client that sends `Idempotency-Key` with a request that creates something
-- (a room, a quick match, a rematch, a player) gets the first answer again when it retries, instead of a
-- second creation; kept for 24 hours, on every node (cluster mode) and across restarts.
CREATE TABLE idempotency_keys (
    -- SHA-256 hex of the caller (its token's hash, or nobody) and the key: the key itself is not stored.
    id          TEXT PRIMARY KEY,
    -- SHA-256 hex of the method, the path and the body: the same key for another request is refused.
    fingerprint TEXT NOT NULL,
    -- The first answer's HTTP status; NULL while that request is being answered.
    status      INTEGER,
    -- The first answer's body, sealed with a key derived from the caller and the idempotency key (it may
    -- hold a token or a private room's join code, which must not be readable in storage).
    response    BYTEA,
    -- When the first request arrived (Unix ms); the row is forgotten 24 hours later.
    created_at  BIGINT NOT NULL
);
CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);
