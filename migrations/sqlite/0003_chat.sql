-- A room's chat: what its seated players wrote, in order. The name is the one the player had when
-- writing (names can change later); the room's last messages are shown to whoever (re)connects.
CREATE TABLE chat_messages (
    room_id      TEXT NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    player_id    TEXT NOT NULL REFERENCES players (id),
    display_name TEXT NOT NULL,
    text         TEXT NOT NULL,
    at           INTEGER NOT NULL,
    PRIMARY KEY (room_id, seq)
);
