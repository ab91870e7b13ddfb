-- A finished room's rematch: the room its players move on to. One per room (the primary key), so
-- everyone who asks for a rematch lands in the same room, also after a restart.
CREATE TABLE rematches (
    room_id      TEXT PRIMARY KEY NOT NULL REFERENCES rooms (id),
    next_room_id TEXT NOT NULL UNIQUE REFERENCES rooms (id)
);
