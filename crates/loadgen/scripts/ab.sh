#!/usr/bin/env bash
# Two load generators at once against one single-process server (SQLite on tmpfs): the CPU an action of
# each, in the same machine minutes (BENCHMARKS.md, Cluster). Run it twice with A and B swapped.
#
#   crates/loadgen/scripts/ab.sh OLD/parchis-loadgen NEW/parchis-loadgen 800 1000 30   # rooms, pace ms, s
#
# Environment: S (the server binary), PORT, GO_AFTER (seconds until both play: setup must be done by then).
set -euo pipefail
A=$1 B=$2 ROOMS=$3 PACE=$4 DUR=$5
S=${S:-target/release/parchis-server}
PORT=${PORT:-9411}
ulimit -n 20000
dir=$(mktemp -d /dev/shm/parchis-ab.XXXXXX)
PORT=$PORT BIND=127.0.0.1 DATABASE_URL="sqlite://$dir/load.db?mode=rwc" RUST_LOG=warn AWAY_GRACE_SECS=86400 \
    HTTP_WRITES_PER_MINUTE=0 CONNECTIONS_PER_ADDRESS=0 setsid "$S" >"$dir/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; sleep 1; rm -rf "$dir"' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.2; done
go=$(($(date +%s) + ${GO_AFTER:-30}))
run() { # name binary first-source
    setsid "$2" run --addr "127.0.0.1:$PORT" --rooms "$ROOMS" --pace-ms "$PACE" --duration "$DUR" --warmup 5 \
        --go-at "$go" --first-source "$3" --setup-concurrency 16 --json "$dir/$1.json" >"$dir/$1.out" 2>&1 &
}
run a "$A" 10
a=$!
run b "$B" 20
b=$!
wait $a $b || true
for x in a b; do
    python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
a, c, e = r["actions_per_sec"], r["loadgen_cpu_percent"], r["errors"]
print(f"{sys.argv[2]}: {a:.0f} actions/s, load generator CPU {c:.1f} % = {c * 10 / a:.4f} ms an action, errors {e}")
' "$dir/$x.json" "$x"
done
