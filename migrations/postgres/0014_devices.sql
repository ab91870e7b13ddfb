-- Devices: an account's owner sees where they are signed in and signs one device out. Each token keeps the
-- User-Agent it was handed out to (shown as "Firefox on Android"; NULL: not known, "Unknown device") and
-- when it last authenticated a request (Unix ms, written at most once an hour per token). A player's first
-- token lives in `players` (token_hash), so its two live there too; it was handed out at players.created_at.
ALTER TABLE sessions ADD COLUMN user_agent TEXT;
ALTER TABLE sessions ADD COLUMN last_used_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN token_user_agent TEXT;
ALTER TABLE players ADD COLUMN token_last_used_at BIGINT NOT NULL DEFAULT 0;

-- Tokens handed out before: last used when they were handed out, for all anyone knows.
UPDATE sessions SET last_used_at = created_at;
UPDATE players SET token_last_used_at = created_at;
