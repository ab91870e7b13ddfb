#!/usr/bin/env bash
# A load run against a cluster on this machine (BENCHMARKS.md, "Cluster"): a fresh PostgreSQL database,
# NODES parchis-server nodes on one NATS, parchis-loadgen in SHARDS processes that play together, their
# reports merged. With KILL_AFTER=S, the last node is killed with SIGKILL S seconds after play begins.
#
#   NODES=3 SHARDS=3 OUT=/tmp/run crates/loadgen/scripts/cluster.sh --rooms 12500 --pace-ms 2000 \
#       --duration 300 --warmup 30
#
# Arguments go to every `parchis-loadgen run` (each plays its shard of --rooms). Environment: S and L (the
# release binaries), PG (admin URL of PostgreSQL), NATS_URL, GO_AFTER (seconds from now until play begins:
# setup and connecting must be done by then), PORT0 (node k listens on PORT0 + k), NODE_ENV (more
# KEY=VALUE for the nodes), SYNC_COMMIT (below).
set -euo pipefail
NODES=${NODES:-3}
SHARDS=${SHARDS:-2}
S=${S:-target/release/parchis-server}
L=${L:-target/release/parchis-loadgen}
PG=${PG:-postgres://postgres@127.0.0.1:5432}
NATS_URL=${NATS_URL:-nats://127.0.0.1:4222}
GO_AFTER=${GO_AFTER:-120}
PORT0=${PORT0:-9300}
OUT=${OUT:-$(mktemp -d /tmp/parchis-cluster.XXXXXX)}
mkdir -p "$OUT"
DB=bench_$(date +%s)_$$
HERE=$(dirname "$0")
ulimit -n 20000
# Each node and each load process in a session of its own: with the kernel's autogroups
# (/proc/sys/kernel/sched_autogroup_enabled) the CPU is shared between sessions first, and a run whose
# dozen processes share one session gets one session's share of a busy machine, whatever the others' nice.

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT

psql "$PG/postgres" -qc "CREATE DATABASE $DB"
# SYNC_COMMIT=off: commits do not wait for the WAL's fsync (the database of this run only; a killed node
# loses nothing by it, a crash of PostgreSQL would). The disk of a shared machine makes fsync the figure.
[ -z "${SYNC_COMMIT:-}" ] || psql "$PG/postgres" -qc "ALTER DATABASE $DB SET synchronous_commit = $SYNC_COMMIT"
start_node() {
    local k=$1
    setsid env PORT=$((PORT0 + k)) BIND=127.0.0.1 DATABASE_URL="$PG/$DB" NATS_URL="$NATS_URL" NATS_PREFIX="$DB" \
        NODE_NAME="n$k" RUST_LOG=warn AWAY_GRACE_SECS=86400 HTTP_WRITES_PER_MINUTE=0 CONNECTIONS_PER_ADDRESS=0 \
        ${NODE_ENV:-} "$S" >"$OUT/node$k.log" 2>&1 &
    pids+=($!)
    echo $! >"$OUT/node$k.pid"
    for _ in $(seq 300); do
        curl -sf "http://127.0.0.1:$((PORT0 + k))/readyz" >/dev/null && return 0
        sleep 0.2
    done
    echo "node $k not ready" >&2
    return 1
}
# The first node migrates the database; the others start once it is ready.
for k in $(seq 1 "$NODES"); do start_node "$k"; done
nodes=(--addr "127.0.0.1:$((PORT0 + 1))")
for k in $(seq 2 "$NODES"); do nodes+=(--node "127.0.0.1:$((PORT0 + k))"); done

"$HERE/cpu.py" 10 >"$OUT/cpu.log" &
pids+=($!)
go=$(($(date +%s) + GO_AFTER))
shard_pids=()
for i in $(seq 0 $((SHARDS - 1))); do
    setsid "$L" run "${nodes[@]}" --shard "$i/$SHARDS" --go-at "$go" --json "$OUT/shard$i.json" "$@" \
        >"$OUT/shard$i.out" 2>"$OUT/shard$i.err" &
    shard_pids+=($!)
done
event=()
if [ -n "${KILL_AFTER:-}" ]; then
    sleep $((go + KILL_AFTER - $(date +%s)))
    victim=$(cat "$OUT/node$NODES.pid")
    kill -9 "$victim"
    date +%s.%N >"$OUT/killed_at"
    echo "killed node $NODES (pid $victim) at $(cat "$OUT/killed_at")"
    event=(--event-at "$(cat "$OUT/killed_at")")
fi
status=0
for pid in "${shard_pids[@]}"; do wait "$pid" || status=1; done
"$L" merge "${event[@]}" --timeline --json "$OUT/merged.json" "$OUT"/shard*.json >"$OUT/merged.txt" || status=1
grep -v '^[0-9]* n=' "$OUT/merged.txt"
echo "reports, logs and CPU by process in $OUT (database $DB dropped)"
exit $status
