-- Accounts: a player who chose a username and a password signs in on other devices as the same player.
CREATE TABLE accounts (
    player_id     TEXT PRIMARY KEY REFERENCES players (id),
    -- As typed (shown); username_key is the same folded to lower case, unique: "Ana" and "ana" are one.
    username      TEXT NOT NULL,
    username_key  TEXT NOT NULL UNIQUE,
    -- Argon2id PHC string; the password itself is never stored.
    password_hash TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);

-- Tokens handed out by signing in, one per device (a player's first token stays in players.token_hash).
CREATE TABLE sessions (
    -- SHA-256 hex of the bearer token, as in players.
    token_hash TEXT PRIMARY KEY,
    player_id  TEXT NOT NULL REFERENCES players (id),
    created_at BIGINT NOT NULL
);

CREATE INDEX sessions_player_idx ON sessions (player_id);
