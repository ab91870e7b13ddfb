-- Initial schema (SQLite). Timestamps are Unix milliseconds (INTEGER) so the
-- same Rust code reads them on SQLite and PostgreSQL.

CREATE TABLE players (
    id           TEXT PRIMARY KEY NOT NULL,
    display_name TEXT NOT NULL,
    -- SHA-256 hex of the bearer token; the token itself is never stored.
    token_hash   TEXT NOT NULL UNIQUE,
    created_at   INTEGER NOT NULL
);

CREATE TABLE rooms (
    id         TEXT PRIMARY KEY NOT NULL,
    join_code  TEXT NOT NULL UNIQUE,
    owner_id   TEXT NOT NULL REFERENCES players (id),
    settings   TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('waiting', 'playing', 'finished')),
    created_at INTEGER NOT NULL
);

CREATE INDEX rooms_status_idx ON rooms (status, created_at);

CREATE TABLE room_seats (
    room_id          TEXT NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
    seat             INTEGER NOT NULL,
    player_id        TEXT REFERENCES players (id),
    bot_level        TEXT,
    preferred_colour TEXT,
    PRIMARY KEY (room_id, seat),
    CHECK (player_id IS NULL OR bot_level IS NULL)
);

CREATE TABLE games (
    id          TEXT PRIMARY KEY NOT NULL,
    room_id     TEXT NOT NULL REFERENCES rooms (id),
    seed_hash   TEXT NOT NULL,
    -- Secret until the game ends: never serialized to clients before finished_at is set.
    seed        TEXT,
    started_at  INTEGER NOT NULL,
    finished_at INTEGER,
    result      TEXT
);

CREATE INDEX games_room_idx ON games (room_id);

CREATE TABLE game_log (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    kind    TEXT NOT NULL CHECK (kind IN ('roll', 'move')),
    payload TEXT NOT NULL,
    at      INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);
