-- A player's own list of rooms (GET /api/players/me/rooms) looks seats up by player.
CREATE INDEX room_seats_player_idx ON room_seats (player_id);
