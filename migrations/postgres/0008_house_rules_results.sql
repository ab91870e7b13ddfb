-- Rooms may now play house rules. A result says whether its game had any, so that the leaderboard
-- counts only games of the rule sets as they are (a player's own record counts every game).
-- Every game stored before house rules existed played its preset.
ALTER TABLE player_results ADD COLUMN house_rules INTEGER NOT NULL DEFAULT 0;
