#!/usr/bin/env bash
# Checks the compose deployment as a host runs it: docker/Dockerfile builds the image, and
# docker/docker-compose.yml (then with docker/docker-compose.cluster.yml) runs it, on this machine.
# The automated form of DEPLOY.md's "Docker". Run by .ci/run.
#
#   docker/check-compose.sh                       (as root, on Debian)
#
# 1. Installs docker.io, docker-compose, debootstrap and python3-websockets with apt when missing, and
#    starts dockerd if none answers (its data in /var/lib/docker; stopped again at the end).
# 2. Without a reachable image registry, makes local stand-ins for the official images (unless
#    CHECK_COMPOSE_IMAGES=official): Debian bookworm by debootstrap + docker import, then PostgreSQL,
#    NATS, nginx and the Rust build image (the host's toolchain) from docker/standins/*.Dockerfile, and
#    vendors the crates (cargo vendor, into vendor/) so that the image builds offline. They are named to
#    the compose file and the Dockerfile by POSTGRES_IMAGE, NATS_IMAGE, NGINX_IMAGE, RUST_IMAGE and
#    CARGO_VENDOR_DIR. The debootstrap root file system is cached in CHECK_COMPOSE_CACHE
#    (/var/cache/parchis-docker), the images and the build's cache mounts in Docker's own store, so a
#    second run builds only what changed.
# 3. Builds the server image from docker/Dockerfile and checks it: size (goal under 40 MB), user,
#    health check, stop signal.
# 4. Single node, with docker-compose (and again with `docker compose` where that plugin exists): up,
#    both health checks, a whole game against a bot over REST and a WebSocket on the published port
#    (127.0.0.1, a free one), the server container stopped (SIGTERM drains: exit status 0) and started:
#    the game is stored; `down` then `up`: the game is still there (the named volume); `down -v`.
# 5. Cluster (when `parchis-server --help` shows cluster mode): PostgreSQL, NATS, three nodes, nginx;
#    Ana and Bea play through nginx on two different nodes, Bea's node is killed mid-game, both
#    reconnect through nginx and the game goes on.
# Prints one line a check, a FAIL line for each failed one, and a closing "N passed, N failed in Ts"
# line; exit status 1 if any failed. Everything it started is stopped, its compose projects are taken
# down with their volumes, vendor/ is removed if it made it (CHECK_COMPOSE_KEEP=1 keeps all that).
set -uo pipefail
started=$(date +%s)
cd "$(dirname "$0")/.."
repo=$PWD

passed=0
failed=0
ok() { echo "ok    $*"; passed=$((passed + 1)); }
fail() { echo "FAIL  $*"; failed=$((failed + 1)); }
die() { echo "FAIL  $*"; failed=$((failed + 1)); finish; }
say() { printf -- '-- %s\n' "$*"; }
finish() {
  echo "$passed passed, $failed failed in $(($(date +%s) - started))s (docker/check-compose.sh: docker/Dockerfile and docker/docker-compose.yml)"
  [ "$failed" -eq 0 ]
  exit
}

tmp=$(mktemp -d /tmp/parchis-compose.XXXXXX)
cache=${CHECK_COMPOSE_CACHE:-/var/cache/parchis-docker}
python=${PYTHON:-/usr/bin/python3}
dockerd_pid=""
made_vendor=""
projects=()
cleanup() {
  local p
  if [ -z "${CHECK_COMPOSE_KEEP:-}" ]; then
    for p in "${projects[@]}"; do
      COMPOSE_PROJECT_NAME=$p docker-compose -f docker/docker-compose.yml -f docker/docker-compose.cluster.yml \
        down -v --remove-orphans >/dev/null 2>&1
    done
    [ -n "$made_vendor" ] && rm -rf vendor
  fi
  if [ -n "$dockerd_pid" ]; then
    kill "$dockerd_pid" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$dockerd_pid" 2>/dev/null || break; sleep 0.2; done
  fi
  if [ -n "${CHECK_COMPOSE_KEEP:-}" ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- 1. What it needs. ---
missing=""
[ -x /usr/sbin/dockerd ] || missing="$missing docker.io"
command -v docker-compose >/dev/null || missing="$missing docker-compose"
command -v debootstrap >/dev/null || missing="$missing debootstrap"
command -v curl >/dev/null || missing="$missing curl"
"$python" -c 'import websockets' 2>/dev/null || missing="$missing python3-websockets"
if [ -n "$missing" ]; then
  say "apt-get install$missing"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >"$tmp/apt.log" 2>&1; }; then
    cat "$tmp/apt.log"; die "apt-get install$missing"
  fi
fi
# Debian's client matches Debian's daemon (a newer client elsewhere on the PATH may lack buildx, which
# it needs for BuildKit); docker-compose 1.x speaks to the daemon itself.
docker=/usr/bin/docker
[ -x "$docker" ] || docker=$(command -v docker)
export DOCKER_BUILDKIT=1
if ! "$docker" info >/dev/null 2>&1; then
  say "starting dockerd (log in $tmp/dockerd.log)"
  /usr/sbin/dockerd >"$tmp/dockerd.log" 2>&1 &
  dockerd_pid=$!
  for _ in $(seq 1 60); do "$docker" info >/dev/null 2>&1 && break; sleep 0.5; done
  "$docker" info >/dev/null 2>&1 || { tail -n 20 "$tmp/dockerd.log"; die "dockerd did not start"; }
fi
say "$("$docker" version -f 'Docker {{.Server.Version}} (client {{.Client.Version}})'), $(docker-compose version --short | sed 's/^/docker-compose /'), $("$python" -c 'import websockets; print("websockets", websockets.__version__)')"

free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
seconds() { echo $(($(date +%s) - $1)); }

# --- 2. The images it builds on: the official ones, or stand-ins made here. ---
build_args=()
if [ "${CHECK_COMPOSE_IMAGES:-standins}" = official ]; then
  say "official images (CHECK_COMPOSE_IMAGES=official): pulled by Docker, crates fetched by cargo in the build"
  export POSTGRES_IMAGE=postgres:16 NATS_IMAGE=nats:2 NGINX_IMAGE=nginx:1 RUST_IMAGE=rust:1-slim-bookworm
else
  t0=$(date +%s)
  debian=parchis-standin/debian:bookworm
  if ! "$docker" image inspect "$debian" >/dev/null 2>&1; then
    if [ ! -f "$cache/bookworm-rootfs.tar" ]; then
      say "debootstrap --variant=minbase bookworm (cached in $cache)"
      mkdir -p "$cache"
      rm -rf "$cache/rootfs"
      debootstrap --variant=minbase bookworm "$cache/rootfs" http://deb.debian.org/debian >"$tmp/debootstrap.log" 2>&1 ||
        { tail -n 20 "$tmp/debootstrap.log"; die "debootstrap"; }
      rm -rf "$cache/rootfs/var/cache/apt/archives/"*.deb "$cache/rootfs/var/lib/apt/lists/"*
      tar -C "$cache/rootfs" -cf "$cache/bookworm-rootfs.tar" . && rm -rf "$cache/rootfs"
    fi
    "$docker" import "$cache/bookworm-rootfs.tar" "$debian" >/dev/null || die "docker import $debian"
  fi
  standin() { # NAME TAG [CONTEXT]: docker/standins/NAME.Dockerfile FROM the Debian stand-in
    local context=${3:-docker/standins}
    "$docker" build -q --build-arg DEBIAN_IMAGE="$debian" -t "$2" -f "docker/standins/$1.Dockerfile" "$context" \
      >"$tmp/standin-$1.log" 2>&1 || { cat "$tmp/standin-$1.log"; die "stand-in $2"; }
  }
  standin postgres parchis-standin/postgres:15
  standin nats parchis-standin/nats:2.9
  standin nginx parchis-standin/nginx:1.22
  # The build image: the host's toolchain, if it is as new as the workspace's rust-version.
  need=$(sed -n 's/^rust-version *= *"\(.*\)"/\1/p' Cargo.toml)
  have=$(rustc --version | cut -d' ' -f2)
  [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n 1)" = "$need" ] ||
    die "the host's rustc $have is older than the workspace's rust-version $need"
  sysroot=$(rustc --print sysroot)
  context="$cache/rust-$have"
  if [ ! -d "$context/toolchain" ]; then
    mkdir -p "$context/toolchain/bin" "$context/toolchain/lib/rustlib"
    # Hard links where the cache is on the toolchain's file system (no copy of 500 MB).
    cp -al "$sysroot/bin/cargo" "$sysroot/bin/rustc" "$context/toolchain/bin/" 2>/dev/null ||
      cp -a "$sysroot/bin/cargo" "$sysroot/bin/rustc" "$context/toolchain/bin/"
    cp -al "$sysroot/lib/"*.so* "$context/toolchain/lib/" 2>/dev/null || cp -a "$sysroot/lib/"*.so* "$context/toolchain/lib/"
    cp -al "$sysroot/lib/rustlib/x86_64-unknown-linux-gnu" "$sysroot/lib/rustlib/etc" "$context/toolchain/lib/rustlib/" 2>/dev/null ||
      cp -a "$sysroot/lib/rustlib/x86_64-unknown-linux-gnu" "$sysroot/lib/rustlib/etc" "$context/toolchain/lib/rustlib/"
  fi
  standin rust "parchis-standin/rust:$have" "$context"
  export POSTGRES_IMAGE=parchis-standin/postgres:15 NATS_IMAGE=parchis-standin/nats:2.9 \
    NGINX_IMAGE=parchis-standin/nginx:1.22 RUST_IMAGE=parchis-standin/rust:$have
  ok "stand-in images ready in $(seconds "$t0")s: $debian (debootstrap), $POSTGRES_IMAGE, $NATS_IMAGE, $NGINX_IMAGE, $RUST_IMAGE (host toolchain)"
  # The crates, vendored here, for the build inside (crates.io is not reachable from a container).
  [ -d vendor ] || made_vendor=yes
  cargo vendor --locked --versioned-dirs vendor >/dev/null 2>"$tmp/vendor.log" || { cat "$tmp/vendor.log"; die "cargo vendor"; }
  build_args=(--build-arg CARGO_VENDOR_DIR=vendor)
fi

# --- 3. The server image, from docker/Dockerfile. ---
export PARCHIS_IMAGE=parchis-server:check
say "docker build -f docker/Dockerfile (RUST_IMAGE=$RUST_IMAGE${build_args[*]:+, CARGO_VENDOR_DIR=vendor})"
t0=$(date +%s)
if "$docker" build --progress=plain --build-arg RUST_IMAGE="$RUST_IMAGE" "${build_args[@]}" \
  -f docker/Dockerfile -t "$PARCHIS_IMAGE" . >"$tmp/build.log" 2>&1; then
  ok "image built in $(seconds "$t0")s ($(grep -c ' Compiling ' "$tmp/build.log") crates compiled)"
else
  tail -n 40 "$tmp/build.log"; die "docker build -f docker/Dockerfile"
fi
size=$("$docker" image inspect -f '{{.Size}}' "$PARCHIS_IMAGE")
mb=$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1000000 }')
if [ "$size" -lt 40000000 ]; then ok "image size $mb MB (goal: under 40 MB)"; else fail "image size $mb MB, over the 40 MB goal"; fi
expect() { # WHAT GOT WANT (a shell pattern)
  # shellcheck disable=SC2254
  case "$2" in
    $3) ok "$1: $2" ;;
    *) fail "$1: got '$2', want '$3'" ;;
  esac
}
expect "image user" "$("$docker" image inspect -f '{{.Config.User}}' "$PARCHIS_IMAGE")" "10001:10001"
expect "image health check" "$("$docker" image inspect -f '{{json .Config.Healthcheck.Test}}' "$PARCHIS_IMAGE")" \
  '\["CMD","/usr/local/bin/parchis-server","healthcheck"\]'
expect "image stop signal" "$("$docker" image inspect -f '{{.Config.StopSignal}}' "$PARCHIS_IMAGE")" "SIGTERM"
expect "the binary in the image" "$("$docker" run --rm "$PARCHIS_IMAGE" --version 2>&1)" "parchis-server *"
if "$docker" run --rm --entrypoint /bin/sh "$PARCHIS_IMAGE" -c true >/dev/null 2>&1; then
  fail "the image has a shell"
else
  ok "no shell in the image"
fi

# --- 4. Single node. ---
export BOT_DELAY_MS=0
health() { # SERVICE...: wait until each is healthy (90 s at most)
  local s id state
  for s in "$@"; do
    for _ in $(seq 1 180); do
      id=$(compose ps -q "$s" 2>/dev/null)
      state=$([ -n "$id" ] && "$docker" inspect -f '{{.State.Health.Status}}' "$id" 2>/dev/null)
      [ "$state" = healthy ] && break
      sleep 0.5
    done
    [ "$state" = healthy ] || { compose logs --tail 20 "$s"; return 1; }
  done
}
game() { # LABEL WHAT BASE: compose-game.py's lines, each counted
  local label=$1 l out status
  shift
  out=$("$python" docker/compose-game.py "$@" "$tmp/game.json" 2>&1)
  status=$?
  while IFS= read -r l; do
    case "$l" in
      "ok "*) ok "$label: ${l#ok }" ;;
      *) echo "      $l" ;;
    esac
  done <<<"$out"
  [ "$status" -eq 0 ] || fail "$label: docker/compose-game.py $1 failed"
  return "$status"
}
single() { # LABEL COMPOSE-COMMAND...
  local label=$1 t id code port base
  shift
  eval "compose() { $* -f docker/docker-compose.yml \"\$@\"; }"
  export COMPOSE_PROJECT_NAME="parchis-check-$label-$$"
  projects+=("$COMPOSE_PROJECT_NAME")
  port=$(free_port)
  export PARCHIS_PORT=$port
  base="http://127.0.0.1:$port"
  say "$label: $* -f docker/docker-compose.yml up -d (project $COMPOSE_PROJECT_NAME, 127.0.0.1:$port)"
  t=$(date +%s)
  compose up -d --no-build >"$tmp/up.log" 2>&1 || { cat "$tmp/up.log"; fail "$label: up"; return; }
  if health postgres server; then ok "$label: postgres and server healthy $(seconds "$t")s after up"; else fail "$label: not healthy"; return; fi
  game "$label" play "$base" || return
  # Stopped as `docker stop` does (SIGTERM, the image's STOPSIGNAL), then started again.
  id=$(compose ps -q server)
  compose stop server >/dev/null 2>&1
  code=$("$docker" inspect -f '{{.State.ExitCode}}' "$id")
  expect "$label: the server's exit status after SIGTERM" "$code" 0
  expect "$label: its log" "$(compose logs server 2>&1 | grep -c 'shutdown requested')" "[1-9]*"
  compose start server >/dev/null 2>&1
  if health server; then ok "$label: server healthy again"; else fail "$label: server not healthy after start"; return; fi
  game "$label, after a restart" stored "$base"
  # down keeps the named volume; up makes new containers on it. (The image's VOLUME /data, unused with
  # PostgreSQL, leaves an anonymous volume behind each down: removed here.)
  anonymous=$("$docker" inspect -f '{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}' $(compose ps -q server))
  compose down >/dev/null 2>&1
  for v in $anonymous; do "$docker" volume rm "$v" >/dev/null 2>&1; done
  expect "$label: containers after down" "$(compose ps -q | wc -l)" 0
  compose up -d --no-build >"$tmp/up.log" 2>&1 || { cat "$tmp/up.log"; fail "$label: up again"; return; }
  if health postgres server; then ok "$label: healthy after down and up"; else fail "$label: not healthy after down and up"; return; fi
  game "$label, after down and up" stored "$base"
  compose down -v >/dev/null 2>&1
  ok "$label: whole run in $(seconds "$t")s"
}
single docker-compose docker-compose
if "$docker" compose version >/dev/null 2>&1; then
  single compose-plugin "$docker" compose
else
  say "docker compose (the plugin): not installed here, skipped (Debian 12 has docker-compose 1.29 only)"
fi

# --- 5. Cluster. ---
# The image's help is read whole first: `docker run … | grep -q` under pipefail was false whenever grep's
# early exit cut docker's output short (SIGPIPE), and the cluster half was skipped unnoticed.
image_help=$("$docker" run --rm "$PARCHIS_IMAGE" --help 2>&1)
if grep -q -- '--nats-url' <<<"$image_help"; then
  say "cluster: the image has cluster mode (--nats-url)"
  cluster_files=(-f docker/docker-compose.yml -f docker/docker-compose.cluster.yml)
  compose() { docker-compose "${cluster_files[@]}" "$@"; }
  export COMPOSE_PROJECT_NAME="parchis-check-cluster-$$"
  projects+=("$COMPOSE_PROJECT_NAME")
  export PARCHIS_PORT CLUSTER_PORT
  PARCHIS_PORT=$(free_port)
  CLUSTER_PORT=$(free_port)
  t=$(date +%s)
  if ! compose up -d --no-build >"$tmp/up.log" 2>&1; then
    cat "$tmp/up.log"; fail "cluster: up"
  elif ! health postgres server node2 node3; then
    fail "cluster: not healthy"
  else
    ok "cluster: postgres, NATS, three nodes and nginx up, nodes healthy $(seconds "$t")s after up"
    nodes=(--node "server=http://127.0.0.1:$PARCHIS_PORT/metrics")
    for n in node2 node3; do
      nodes+=(--node "$n=http://$(compose port "$n" 8080)/metrics")
    done
    out=$("$python" docker/compose-game.py cluster "http://127.0.0.1:$CLUSTER_PORT" "${nodes[@]}" \
      --kill "docker-compose ${cluster_files[*]} kill" 2>&1)
    status=$?
    while IFS= read -r l; do
      case "$l" in
        "ok "*) ok "cluster: ${l#ok }" ;;
        *) echo "      $l" ;;
      esac
    done <<<"$out"
    [ "$status" -eq 0 ] || { fail "cluster: docker/compose-game.py cluster failed"; compose logs --tail 30 >"$tmp/cluster.log" 2>&1; tail -n 60 "$tmp/cluster.log"; }
    compose down -v >/dev/null 2>&1
    ok "cluster: whole run in $(seconds "$t")s"
  fi
else
  # Every server built from this tree has cluster mode: an image without it is a broken build.
  fail "cluster: the image has no cluster mode (--nats-url not in its --help)"
fi
finish
