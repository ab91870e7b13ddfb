-- Results are now written for every finished game with at least one person seated (a player's own
-- record counts games against bots too); `people` says how many people sat at it, so that the
-- leaderboard keeps counting only games with at least two.
ALTER TABLE player_results ADD COLUMN people INTEGER NOT NULL DEFAULT 2;

UPDATE player_results SET people = (
    SELECT COUNT(*) FROM room_seats s JOIN games g ON g.room_id = s.room_id
    WHERE g.id = player_results.game_id AND s.player_id IS NOT NULL
);

-- The games finished before with one person seated (against bots), which wrote no result then.
INSERT INTO player_results (game_id, player_id, rules, won, finished_at, people)
SELECT g.id, s.player_id, json_extract(r.settings, '$.rules'),
       CASE WHEN EXISTS (
           SELECT 1 FROM json_each(g.result, '$.winner_seats') w WHERE w.value = s.seat
       ) THEN 1 ELSE 0 END,
       g.finished_at, 1
FROM games g
JOIN rooms r ON r.id = g.room_id
JOIN room_seats s ON s.room_id = g.room_id
WHERE g.finished_at IS NOT NULL AND g.result IS NOT NULL AND s.player_id IS NOT NULL
  AND (SELECT COUNT(*) FROM room_seats o WHERE o.room_id = g.room_id AND o.player_id IS NOT NULL) = 1;

CREATE INDEX player_results_player_idx ON player_results (player_id, finished_at);
