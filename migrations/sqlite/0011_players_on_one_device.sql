-- Players on one device (pass and play): a seat played by a person who has no player of their own here,
-- at the device of a player seated in the same room. `local_of` is that player (who acts for the seat),
-- `local_name` the name shown for it; `player_id` stays NULL, so such a seat is no one's record or rating.
ALTER TABLE room_seats ADD COLUMN local_of TEXT REFERENCES players (id);
ALTER TABLE room_seats ADD COLUMN local_name TEXT;
