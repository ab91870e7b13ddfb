-- Cluster mode (issue 32): the nodes that are alive, which node runs each room, and the fence that
-- refuses a room's writes from any node but its owner.

-- One row per server process started in cluster mode. `heartbeat_at` is written with the database's
-- clock every second, so that the clocks of the machines never matter: a node is dead once its
-- heartbeat is older than the TTL, or once it said it is draining.
CREATE TABLE cluster_nodes (
    node_id      TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    started_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    heartbeat_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    draining     BOOLEAN NOT NULL DEFAULT FALSE
);

-- The node running each room (`NULL`: none), and how many times the room was claimed. A claim is one
-- compare-and-set: only a room without owner, or whose owner is dead, changes hands.
CREATE TABLE room_owners (
    room_id TEXT PRIMARY KEY REFERENCES rooms (id) ON DELETE CASCADE,
    node_id TEXT,
    epoch   BIGINT NOT NULL
);

CREATE INDEX room_owners_node_idx ON room_owners (node_id);

-- The fence. A node's room tasks write through connections that carry `parchis.node` (set when the
-- connection opens); such a write to a room that was ever claimed is refused unless that node owns it
-- now. The owner's row is read FOR SHARE, so a claim by another node waits for the write's
-- transaction, and a write waits for a claim and then sees its outcome. Other connections (the REST
-- handlers, single-node servers, tools) have no `parchis.node` and are not fenced.
CREATE FUNCTION parchis_fence(room TEXT) RETURNS VOID AS $$
DECLARE
    me TEXT := current_setting('parchis.node', true);
    owner TEXT;
BEGIN
    IF me IS NULL OR me = '' OR room IS NULL THEN
        RETURN;
    END IF;
    SELECT node_id INTO owner FROM room_owners WHERE room_id = room FOR SHARE;
    IF FOUND AND owner IS DISTINCT FROM me THEN
        RAISE EXCEPTION 'node % does not own room % (owner: %)', me, room, owner
            USING ERRCODE = 'PXF01';
    END IF;
END
$$ LANGUAGE plpgsql;

CREATE FUNCTION parchis_fence_room_row() RETURNS TRIGGER AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM parchis_fence(OLD.room_id);
        RETURN OLD;
    END IF;
    PERFORM parchis_fence(NEW.room_id);
    RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE FUNCTION parchis_fence_rooms() RETURNS TRIGGER AS $$
BEGIN
    PERFORM parchis_fence(NEW.id);
    RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE FUNCTION parchis_fence_game_log() RETURNS TRIGGER AS $$
BEGIN
    IF current_setting('parchis.node', true) IS NOT NULL
        AND current_setting('parchis.node', true) <> '' THEN
        PERFORM parchis_fence((SELECT room_id FROM games WHERE id = NEW.game_id));
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER rooms_fence BEFORE UPDATE ON rooms
    FOR EACH ROW EXECUTE FUNCTION parchis_fence_rooms();
CREATE TRIGGER room_seats_fence BEFORE INSERT OR UPDATE OR DELETE ON room_seats
    FOR EACH ROW EXECUTE FUNCTION parchis_fence_room_row();
CREATE TRIGGER games_fence BEFORE INSERT OR UPDATE ON games
    FOR EACH ROW EXECUTE FUNCTION parchis_fence_room_row();
CREATE TRIGGER chat_messages_fence BEFORE INSERT OR UPDATE OR DELETE ON chat_messages
    FOR EACH ROW EXECUTE FUNCTION parchis_fence_room_row();
CREATE TRIGGER game_log_fence BEFORE INSERT ON game_log
    FOR EACH ROW EXECUTE FUNCTION parchis_fence_game_log();
