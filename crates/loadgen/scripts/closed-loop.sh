#!/usr/bin/env bash
# What one cluster node costs (BENCHMARKS.md, "Cluster"): the same closed-loop run (`--pace-ms 0`) against
# a single process on SQLite (tmpfs), a single process on PostgreSQL, one cluster node (PostgreSQL + NATS)
# and the bare broadcaster, back to back; each PostgreSQL run on a fresh database.
#
#   crates/loadgen/scripts/closed-loop.sh [--rooms 1000 --duration 20 --warmup 5]
set -euo pipefail
S=${S:-target/release/parchis-server}
L=${L:-target/release/parchis-loadgen}
PG=${PG:-postgres://postgres@127.0.0.1:5432}
NATS_URL=${NATS_URL:-nats://127.0.0.1:4222}
OUT=${OUT:-$(mktemp -d /tmp/parchis-closed.XXXXXX)}
mkdir -p "$OUT"
ARGS=("$@")
[ ${#ARGS[@]} -gt 0 ] || ARGS=(--rooms 1000 --duration 20 --warmup 5)
ulimit -n 20000
db=""
drop() { [ -z "$db" ] || psql "$PG/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null; db=""; }
"$(dirname "$0")/cpu.py" 5 >>"$OUT/cpu.log" &
sampler=$!
trap 'drop; kill $sampler' EXIT
fresh() {
    drop
    db=bench_$(date +%s)_$$
    psql "$PG/postgres" -qc "CREATE DATABASE $db"
    # As the SQLite run's tmpfs: commits do not wait for the disk (SYNC_COMMIT=on to wait).
    psql "$PG/postgres" -qc "ALTER DATABASE $db SET synchronous_commit = ${SYNC_COMMIT:-off}"
}
run() {
    local name=$1
    shift
    echo "== $name" | tee -a "$OUT/cpu.log"
    "$L" run --pace-ms 0 --setup-concurrency 64 --progress 5 "${ARGS[@]}" --json "$OUT/$name.json" "$@" \
        2>"$OUT/$name.err" | tee "$OUT/$name.txt"
}
run single-sqlite --server-bin "$S" --db-dir /dev/shm
fresh
run single-postgres --server-bin "$S" --server-env "DATABASE_URL=$PG/$db"
fresh
run cluster-node --server-bin "$S" --server-env "DATABASE_URL=$PG/$db" --server-env "NATS_URL=$NATS_URL" \
    --server-env "NATS_PREFIX=$db"
drop
run baseline --spawn-baseline --message-bytes 800
echo "reports in $OUT"
