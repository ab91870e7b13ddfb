#!/usr/bin/env bash
# Checks deploy/nginx.conf and deploy/Caddyfile as they are, on this machine, in front of a real
# parchis-server: the automated form of DEPLOY.md's "Checked" for sections 4 and 5. Run by .ci/run.
#
#   deploy/check-proxies.sh [PATH/TO/parchis-server]      (or PARCHIS_SERVER=...; as root, on Debian)
#
# Installs nginx, caddy, openssl, curl and python3-websockets with apt when missing; starts the server
# (default target/debug/parchis-server, built if missing) on 127.0.0.1 on a free port with a new SQLite
# file, TRUST_FORWARDED_FOR=true and an ADMIN_TOKEN, as DEPLOY.md section 2 sets it. Then, for nginx
# and then Caddy: derives a test configuration from the real file by a few printed substitutions (each
# must match, so a changed file is noticed: the name becomes parchis.test, ports high ones, the
# certificate a self-signed one made here, logs go to the temporary directory), validates it
# (nginx -t, caddy validate), starts the proxy, runs deploy/check-proxy.sh --rate-limit through it,
# stops the server to check the proxy's JSON 503 and to make it fail a WebSocket that carries a token
# in Sec-WebSocket-Protocol and in ?token=, starts the server again and checks that a write goes
# through, and finally searches every log in the temporary directory for every token issued.
# Everything it started is stopped and the directory removed on exit (kept with CHECK_PROXIES_KEEP=1).
# Prints one line a check, a FAIL line for each failed one, and a closing "N passed, N failed in Ts"
# line; exit status 1 if any failed.
set -uo pipefail
started=$(date +%s)
cd "$(dirname "$0")/.."
repo=$PWD
name=parchis.test
server_bin=${1:-${PARCHIS_SERVER:-${CARGO_TARGET_DIR:-target}/debug/parchis-server}}

passed=0
failed=0
ok() { echo "ok    $*"; passed=$((passed + 1)); }
fail() { echo "FAIL  $*"; failed=$((failed + 1)); }
die() { echo "FAIL  $*"; failed=$((failed + 1)); finish; }
say() { printf -- '-- %s\n' "$*"; }

tmp=$(mktemp -d /tmp/parchis-proxies.XXXXXX)
server_pid=""
nginx_started=""
caddy_pid=""
cleanup() {
  [ -n "$caddy_pid" ] && kill "$caddy_pid" 2>/dev/null && wait "$caddy_pid" 2>/dev/null
  if [ -n "$nginx_started" ] && [ -f "$tmp/nginx/nginx.pid" ]; then
    nginx -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" -e "$tmp/logs/nginx-startup.log" -s stop 2>/dev/null
    for _ in $(seq 1 50); do [ -f "$tmp/nginx/nginx.pid" ] || break; sleep 0.1; done
  fi
  stop_server
  if [ -n "${CHECK_PROXIES_KEEP:-}" ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}
finish() {
  echo "$passed passed, $failed failed in $(($(date +%s) - started))s (deploy/check-proxies.sh: deploy/nginx.conf and deploy/Caddyfile)"
  [ "$failed" -eq 0 ]
  exit
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# 1. What it needs.
missing=""
command -v nginx >/dev/null || missing="$missing nginx"
command -v caddy >/dev/null || missing="$missing caddy"
command -v openssl >/dev/null || missing="$missing openssl"
command -v curl >/dev/null || missing="$missing curl"
# ws-game.py runs with Debian's python3 and its python3-websockets unless PYTHON names another.
python=${PYTHON:-/usr/bin/python3}
"$python" -c 'import websockets' 2>/dev/null || missing="$missing python3-websockets"
if [ -n "$missing" ]; then
  say "apt-get install$missing"
  # Installing nginx or caddy starts their service where an init can (not in CI's container); the
  # packaged sites listen on 80 only, and the checks below use other ports.
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >"$tmp/apt.log" 2>&1; }; then
    cat "$tmp/apt.log"; die "apt-get install$missing"
  fi
fi
say "$(nginx -v 2>&1), Caddy $(caddy version | cut -d' ' -f1), $("$python" -c 'import websockets, sys; print("websockets", websockets.__version__, "on Python", sys.version.split()[0])')"

if [ ! -x "$server_bin" ]; then
  say "building $server_bin"
  cargo build -q -p parchis-server || die "cargo build -p parchis-server"
fi

free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
mkdir -p "$tmp/logs" "$tmp/nginx" "$tmp/caddy/home" "$tmp/server"
server_port=$(free_port)

# 2. The server, as DEPLOY.md section 2 runs it (BIND=127.0.0.1, TRUST_FORWARDED_FOR=true, an ADMIN_TOKEN).
start_server() {
  env BIND=127.0.0.1 PORT="$server_port" DATABASE_URL="sqlite://$tmp/server/parchis.db?mode=rwc" \
    TRUST_FORWARDED_FOR=true ADMIN_TOKEN="$(openssl rand -hex 24)" NO_COLOR=1 \
    "$server_bin" >>"$tmp/logs/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$server_port/readyz" && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  tail -n 20 "$tmp/logs/server.log"
  return 1
}
stop_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    server_pid=""
  fi
}
start_server || die "parchis-server did not start on 127.0.0.1:$server_port"
say "parchis-server on 127.0.0.1:$server_port ($server_bin)"

# The self-signed certificate for the test name.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=$name" -addext "subjectAltName=DNS:$name" \
  -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>"$tmp/openssl.log" || { cat "$tmp/openssl.log"; die "openssl req"; }

# 3. sub FILE FROM TO: replace every FROM (a fixed string) by TO in FILE, print it, fail if none.
sub() {
  local n
  n=$(FROM=$2 "$python" -c 'import os, sys; print(open(sys.argv[1]).read().count(os.environ["FROM"]))' "$1")
  if [ "$n" -eq 0 ]; then
    fail "$(basename "$1"): '$2' not found: the configuration changed, adapt deploy/check-proxies.sh"
    return 1
  fi
  FROM=$2 TO=$3 "$python" -c '
import os, sys
s = open(sys.argv[1]).read()
open(sys.argv[1], "w").write(s.replace(os.environ["FROM"], os.environ["TO"]))' "$1"
  printf '      %-58s -> %s  (%s)\n' "$2" "$(printf '%s' "$3" | tr '\n' ' ')" "$n"
}

tokens="$tmp/tokens"
: >"$tokens"

# 4. The checks through one proxy at https://parchis.test:PORT (plain HTTP on HTTP_PORT).
through() { # PROXY PORT HTTP_PORT ACCESS_LOG...
  local proxy=$1 port=$2 http_port=$3; shift 3
  local base="https://$name:$port" log_args=() l out
  for l in "$@"; do log_args+=(--log "$l"); done
  local c=(curl -s --max-time 10 --cacert "$tmp/cert.pem" --resolve "$name:$port:127.0.0.1")
  say "$proxy: deploy/check-proxy.sh $base --rate-limit (test name resolved to 127.0.0.1)"
  out=$(PYTHON=$python "$repo/deploy/check-proxy.sh" "$base" --cacert "$tmp/cert.pem" --resolve 127.0.0.1 \
    --http-port "$http_port" --rate-limit --tokens-file "$tokens" "${log_args[@]}" 2>&1)
  # Its lines, each counted here; its closing "N failed" is left out.
  while IFS= read -r l; do
    case "$l" in
      "ok    "*) ok "$proxy: ${l#ok    }" ;;
      "FAIL  "*) fail "$proxy: ${l#FAIL  }" ;;
      [0-9]*" failed") ;;
      *) echo "      $l" ;;
    esac
  done <<<"$out"

  # The server down: the proxy's own JSON 503 with Retry-After, for the API and for a WebSocket that
  # carries a token both ways (the failed attempt the proxy may log, with its request).
  say "$proxy: the server stopped"
  stop_server
  local tok
  tok=$(head -n 1 "$tokens")
  [ -n "$tok" ] || fail "$proxy: no token was issued to use while the server is down"
  "${c[@]}" -D "$tmp/h" -o "$tmp/body" -w '%{http_code} %{content_type}' "$base/api/rooms" >"$tmp/status"
  expect "$proxy: GET /api/rooms while down" "$(cat "$tmp/status")" "503 application/json*"
  expect "$proxy: its body" "$(cat "$tmp/body")" '{"code":"service_unavailable","message":*}'
  expect "$proxy: its Retry-After" "$(grep -i '^retry-after:' "$tmp/h" | tr -d '\r' | tr 'A-Z' 'a-z')" "retry-after: 5"
  "${c[@]}" --http1.1 -o "$tmp/body" -w '%{http_code}' \
    -H 'Connection: Upgrade' -H 'Upgrade: websocket' -H 'Sec-WebSocket-Version: 13' \
    -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' -H "Sec-WebSocket-Protocol: parchis, parchis.token.$tok" \
    "$base/api/rooms/ABCDEF/ws?token=$tok&since=3&epoch=1" >"$tmp/status"
  expect "$proxy: a WebSocket with a token while down" "$(cat "$tmp/status") $(cat "$tmp/body")" \
    '503 {"code":"service_unavailable"*'
  # The server again: the first write goes through (the proxy let go of its dead connections).
  start_server || fail "$proxy: parchis-server did not start again"
  "${c[@]}" -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    -d '{"display_name":"Again"}' "$base/api/players" >"$tmp/status"
  expect "$proxy: the first POST after the server started again" "$(cat "$tmp/status")" "201"
}
expect() { # WHAT GOT WANT (a shell pattern)
  # shellcheck disable=SC2254
  case "$2" in
    $3) ok "$1: $(printf '%s' "$2" | head -c 120)" ;;
    *) fail "$1: got '$(printf '%s' "$2" | head -c 300)', want '$3'" ;;
  esac
}

# --- nginx, with deploy/nginx.conf as a site included in a minimal nginx.conf of its own. ---
nginx_http=$(free_port)
nginx_https=$(free_port)
site="$tmp/nginx/parchis.conf"
cp deploy/nginx.conf "$site"
say "nginx: deploy/nginx.conf with these substitutions"
nginx_subs_ok=yes
sub "$site" "/etc/letsencrypt/live/parchis.example.org/fullchain.pem" "$tmp/cert.pem" || nginx_subs_ok=no
sub "$site" "/etc/letsencrypt/live/parchis.example.org/privkey.pem" "$tmp/key.pem" || nginx_subs_ok=no
sub "$site" "server_name parchis.example.org;" "server_name $name;" || nginx_subs_ok=no
sub "$site" "listen 80;" "listen 127.0.0.1:$nginx_http;" || nginx_subs_ok=no
sub "$site" "listen [::]:80;" "# (no IPv6 here)" || nginx_subs_ok=no
sub "$site" "listen 443 ssl http2;" "listen 127.0.0.1:$nginx_https ssl http2;" || nginx_subs_ok=no
sub "$site" "listen [::]:443 ssl http2;" "# (no IPv6 here)" || nginx_subs_ok=no
sub "$site" "server 127.0.0.1:8080;" "server 127.0.0.1:$server_port;" || nginx_subs_ok=no
sub "$site" "/var/log/nginx/" "$tmp/logs/nginx-" || nginx_subs_ok=no
# What Debian's /etc/nginx/nginx.conf gives the site: http { include mime.types; ... include sites-enabled/*; },
# with the http-level logs here too (so that they are searched for tokens as well).
cat >"$tmp/nginx/nginx.conf" <<EOF
user root;
worker_processes 1;
pid $tmp/nginx/nginx.pid;
error_log $tmp/logs/nginx-main.error.log;
events { worker_connections 768; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log $tmp/logs/nginx-main.access.log;
    client_body_temp_path $tmp/nginx/client_body;
    proxy_temp_path $tmp/nginx/proxy;
    fastcgi_temp_path $tmp/nginx/fastcgi;
    uwsgi_temp_path $tmp/nginx/uwsgi;
    scgi_temp_path $tmp/nginx/scgi;
    include $site;
}
EOF
nginx_args=(-p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" -e "$tmp/logs/nginx-startup.log")
if [ "$nginx_subs_ok" = yes ]; then
  if nginx "${nginx_args[@]}" -t >"$tmp/nginx-t.log" 2>&1; then
    ok "nginx -t"
    if nginx "${nginx_args[@]}" >"$tmp/nginx-start.log" 2>&1; then
      nginx_started=yes
      through nginx "$nginx_https" "$nginx_http" "$tmp/logs/nginx-parchis.access.log" "$tmp/logs/nginx-parchis.error.log"
      nginx "${nginx_args[@]}" -s stop 2>/dev/null
      for _ in $(seq 1 50); do [ -f "$tmp/nginx/nginx.pid" ] || break; sleep 0.1; done
      nginx_started=""
    else
      fail "nginx did not start: $(cat "$tmp/nginx-start.log")"
    fi
  else
    fail "nginx -t: $(cat "$tmp/nginx-t.log")"
  fi
fi

# --- Caddy, with deploy/Caddyfile as the whole configuration. ---
caddy_http=$(free_port)
caddy_https=$(free_port)
conf="$tmp/caddy/Caddyfile"
cp deploy/Caddyfile "$conf"
say "Caddy: deploy/Caddyfile with these substitutions"
caddy_subs_ok=yes
# Global options first: high ports, no admin endpoint (another Caddy may have localhost:2019), and
# `debug`: Caddy 2.6.2 writes a failed proxy attempt that handle_errors answers (the server down) to its
# own log at debug level only, and at debug that log also holds every proxied request, headers and URI
# (reverse_proxy's "upstream roundtrip"), so the global log filter is checked on all of them.
sub "$conf" $'{\n\t# Where Let\'s Encrypt' $'{\n\thttp_port '"$caddy_http"$'\n\thttps_port '"$caddy_https"$'\n\tadmin off\n\tdebug\n\t# Where Let\'s Encrypt' || caddy_subs_ok=no
sub "$conf" "parchis.example.org {" $'parchis.test {\n\ttls '"$tmp/cert.pem $tmp/key.pem" || caddy_subs_ok=no
sub "$conf" "reverse_proxy 127.0.0.1:8080 {" "reverse_proxy 127.0.0.1:$server_port {" || caddy_subs_ok=no
sub "$conf" "/var/log/caddy/" "$tmp/logs/caddy-" || caddy_subs_ok=no
# Caddy's storage (certificates, autosave.json) in the temporary directory, not root's.
caddy_env=(env HOME="$tmp/caddy/home" XDG_DATA_HOME="$tmp/caddy/home/data" XDG_CONFIG_HOME="$tmp/caddy/home/config")
if [ "$caddy_subs_ok" = yes ]; then
  if "${caddy_env[@]}" caddy validate --config "$conf" --adapter caddyfile >"$tmp/caddy-validate.log" 2>&1; then
    ok "caddy validate"
    # Caddy's own log (the global log block) goes to stderr: in a file here, searched like the others.
    "${caddy_env[@]}" caddy run --config "$conf" --adapter caddyfile >"$tmp/logs/caddy-own.log" 2>&1 &
    caddy_pid=$!
    up=no
    for _ in $(seq 1 100); do
      curl -s -o /dev/null --max-time 1 --cacert "$tmp/cert.pem" --resolve "$name:$caddy_https:127.0.0.1" \
        "https://$name:$caddy_https/readyz" && { up=yes; break; }
      kill -0 "$caddy_pid" 2>/dev/null || break
      sleep 0.1
    done
    if [ "$up" = yes ]; then
      through Caddy "$caddy_https" "$caddy_http" "$tmp/logs/caddy-parchis.access.log" "$tmp/logs/caddy-own.log"
    else
      fail "Caddy did not start: $(tail -n 5 "$tmp/logs/caddy-own.log")"
    fi
    kill "$caddy_pid" 2>/dev/null && wait "$caddy_pid" 2>/dev/null
    caddy_pid=""
  else
    fail "caddy validate: $(tail -n 5 "$tmp/caddy-validate.log")"
  fi
fi

# 5. No token issued (to the checks' players, the games' and the rate limit's) in any log here: the
# proxies' access and error logs, Caddy's own, nginx's http-level ones, and the server's.
say "tokens issued: $(sort -u "$tokens" | wc -l); logs: $(cd "$tmp/logs" && echo *)"
[ -s "$tokens" ] || fail "no token was issued: nothing to search the logs for"
for log in "$tmp"/logs/*; do
  n=$(grep -c -F -f "$tokens" "$log")
  m=$(grep -c -E 'token=[0-9a-f]|parchis\.token\.' "$log")
  expect "no token in $(basename "$log")" "$n $m" "0 0"
done
finish
