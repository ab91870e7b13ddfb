-- One row per seated person of a finished game that had at least two people seated (games against
-- bots alone are not counted): what the leaderboard adds up. Written with the game's result.
CREATE TABLE player_results (
    game_id     TEXT NOT NULL REFERENCES games (id),
    player_id   TEXT NOT NULL REFERENCES players (id),
    rules       TEXT NOT NULL,
    -- 1 when the player's side won, else 0 (INTEGER on both backends: SUM gives a 64-bit integer).
    won         INTEGER NOT NULL,
    finished_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);

CREATE INDEX player_results_rules_idx ON player_results (rules, finished_at);
