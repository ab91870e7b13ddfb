-- Skill ratings (Weng-Lin, as in OpenSkill), one per player and rule set: `mu` is the skill estimate,
-- `sigma` its uncertainty; `games` counts the rated games behind it (a rating is provisional under 5).
-- A game is rated when it has no house rules and people sit on at least two sides.
CREATE TABLE ratings (
    player_id  TEXT NOT NULL REFERENCES players (id),
    rules      TEXT NOT NULL,
    mu         REAL NOT NULL,
    sigma      REAL NOT NULL,
    games      INTEGER NOT NULL,
    -- When the latest rated game finished (Unix ms): the rating leaderboard lists the active.
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, rules)
);
CREATE INDEX ratings_rules_idx ON ratings (rules, mu);

-- What each rated game did to each person's rating, written with the game's result: the record's
-- "+23" per game, and the guard that a game is never rated twice.
CREATE TABLE rating_changes (
    game_id      TEXT NOT NULL REFERENCES games (id),
    player_id    TEXT NOT NULL REFERENCES players (id),
    seat         INTEGER NOT NULL,
    mu_before    REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu_after     REAL NOT NULL,
    sigma_after  REAL NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX rating_changes_player_idx ON rating_changes (player_id);
