-- The fence of game-log appends (0017) checks once per statement instead of once per row. The log writer
-- appends every room's queued entries in one multi-row INSERT; the row trigger ran its PL/pgSQL function
-- and two queries for each entry, about half of what an append cost PostgreSQL in cluster mode
-- (BENCHMARKS.md, Cluster). The statement trigger looks up the owners of all the statement's rooms in
-- one query, holding them FOR SHARE as before (a claim waits for the append's transaction, an append
-- waits for a claim and sees its outcome), and refuses the whole statement if any is owned by another
-- node: the log writer then appends its entries one by one, so each room gets its own answer.
DROP TRIGGER game_log_fence ON game_log;
DROP FUNCTION parchis_fence_game_log();

CREATE FUNCTION parchis_fence_game_log() RETURNS TRIGGER AS $$
DECLARE
    me TEXT := current_setting('parchis.node', true);
    owned RECORD;
BEGIN
    IF me IS NULL OR me = '' THEN
        RETURN NULL;
    END IF;
    FOR owned IN
        SELECT o.room_id, o.node_id FROM room_owners o
        WHERE o.room_id IN (SELECT g.room_id FROM games g WHERE g.id IN (SELECT game_id FROM appended))
        FOR SHARE OF o
    LOOP
        IF owned.node_id IS DISTINCT FROM me THEN
            RAISE EXCEPTION 'node % does not own room % (owner: %)', me, owned.room_id, owned.node_id
                USING ERRCODE = 'PXF01';
        END IF;
    END LOOP;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER game_log_fence AFTER INSERT ON game_log REFERENCING NEW TABLE AS appended
    FOR EACH STATEMENT EXECUTE FUNCTION parchis_fence_game_log();
