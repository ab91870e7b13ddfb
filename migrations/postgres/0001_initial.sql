-- Initial schema (PostgreSQL). Timestamps are Unix milliseconds (BIGINT) and
-- integers are BIGINT so the same Rust code (i64) reads both backends.

CREATE TABLE players (
    id           TEXT PRIMARY KEY,
    display_name TEXT NOT NULL,
    -- SHA-256 hex of the bearer token; the token itself is never stored.
    token_hash   TEXT NOT NULL UNIQUE,
    created_at   BIGINT NOT NULL
);

CREATE TABLE rooms (
    id         TEXT PRIMARY KEY,
    join_code  TEXT NOT NULL UNIQUE,
    owner_id   TEXT NOT NULL REFERENCES players (id),
    settings   JSONB NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('waiting', 'playing', 'finished')),
    created_at BIGINT NOT NULL
);

CREATE INDEX rooms_status_idx ON rooms (status, created_at);

CREATE TABLE room_seats (
    room_id          TEXT NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
    seat             BIGINT NOT NULL,
    player_id        TEXT REFERENCES players (id),
    bot_level        TEXT,
    preferred_colour TEXT,
    PRIMARY KEY (room_id, seat),
    CHECK (player_id IS NULL OR bot_level IS NULL)
);

CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    room_id     TEXT NOT NULL REFERENCES rooms (id),
    seed_hash   TEXT NOT NULL,
    -- Secret until the game ends: never serialized to clients before finished_at is set.
    seed        TEXT,
    started_at  BIGINT NOT NULL,
    finished_at BIGINT,
    result      JSONB
);

CREATE INDEX games_room_idx ON games (room_id);

CREATE TABLE game_log (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     BIGINT NOT NULL,
    kind    TEXT NOT NULL CHECK (kind IN ('roll', 'move')),
    payload JSONB NOT NULL,
    at      BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
