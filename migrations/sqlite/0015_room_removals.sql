-- A person the owner of a waiting room removed from it: they may not take a seat there again (their
-- join is refused `removed_from_room`, and quick match passes the room by). One row per room and person;
-- written in the same transaction as the emptied seat.
CREATE TABLE room_removals (
    room_id    TEXT NOT NULL REFERENCES rooms (id),
    player_id  TEXT NOT NULL REFERENCES players (id),
    removed_at INTEGER NOT NULL,
    PRIMARY KEY (room_id, player_id)
);
