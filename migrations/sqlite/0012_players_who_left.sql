-- A person who left a game while it ran: a bot played their seat on, and the seat no longer names them,
-- but the game still counts for them, as a loss (their record and, in a rated game, their rating). One
-- row per seat left; written in the same transaction as the seat handed to the bot.
CREATE TABLE game_leavers (
    game_id   TEXT NOT NULL REFERENCES games (id),
    seat      INTEGER NOT NULL,
    player_id TEXT NOT NULL REFERENCES players (id),
    left_at   INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
