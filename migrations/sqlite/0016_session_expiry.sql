-- An account's devices unused for SESSION_IDLE_DAYS are signed out. Their idle time counts from this
-- upgrade at the earliest: the last use 0014 wrote for the tokens it found (when each was handed out, for
-- all anyone knew) says nothing of whether they were used since, so none of them is signed out for it.
CREATE TABLE session_expiry (
    counted_from INTEGER NOT NULL
);
INSERT INTO session_expiry (counted_from) VALUES (CAST(strftime('%s', 'now') AS INTEGER) * 1000);
