-- Each person's figures in a finished game (the `seats` of its result: captures made, pieces lost, sixes
-- rolled, pieces at the goal), one row per seat a person held to the end, written with the result: their
-- record adds them up per rule set without reading every game's result. No row for bots, for seats played
-- at someone's device (nobody's record) nor for a seat its person left (a bot played it on: the figures
-- are not theirs), and none for games finished before figures were kept (their result has no `seats`).
-- The counts are INTEGER on both backends (SUM gives a 64-bit integer), like player_results.won.
CREATE TABLE game_seat_figures (
    game_id   TEXT NOT NULL REFERENCES games (id),
    seat      INTEGER NOT NULL,
    player_id TEXT NOT NULL REFERENCES players (id),
    captures  INTEGER NOT NULL,
    captured  INTEGER NOT NULL,
    sixes     INTEGER NOT NULL,
    home      INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seat_figures_player_idx ON game_seat_figures (player_id);

-- The games finished since figures were kept: from their stored result, for the person each seat had at
-- the end (a seat left is a bot's by then), in the games their record counts.
INSERT INTO game_seat_figures (game_id, seat, player_id, captures, captured, sixes, home)
SELECT g.id, s.seat, s.player_id,
       json_extract(f.value, '$.captures'), json_extract(f.value, '$.captured'),
       json_extract(f.value, '$.sixes'), json_extract(f.value, '$.home')
FROM games g
JOIN room_seats s ON s.room_id = g.room_id AND s.player_id IS NOT NULL
JOIN json_each(g.result, '$.seats') f ON json_extract(f.value, '$.seat') = s.seat
WHERE g.finished_at IS NOT NULL AND json_type(g.result, '$.seats') = 'array'
  AND EXISTS (SELECT 1 FROM player_results r WHERE r.game_id = g.id AND r.player_id = s.player_id);
