#!/bin/sh
# Checks a parchis site behind nginx (deploy/nginx.conf) from the outside, the way players reach it.
# See DEPLOY.md, section 4. Not part of CI.
#
#   deploy/check-nginx.sh https://parchis.example.org [--cacert FILE] [--rate-limit]
#
# --cacert FILE  trust this certificate (a self-signed one, for a test name)
# --rate-limit   also check that the write limit holds behind the proxy: 70 POSTs, each with a made-up
#                X-Forwarded-For, X-Real-IP and Forwarded, must end in 429 rate_limited. This uses up
#                this machine's address's API writes for a minute: players there get 429 meanwhile.
#
# Needs curl. With python3 and its `websockets` package (PYTHON=/path/to/venv/bin/python to pick
# one), it also plays a game through the site with deploy/ws-game.py. Run on the nginx machine itself,
# it reads /var/log/nginx/parchis.access.log and parchis.error.log (when it may) and fails if a token
# is in them. It creates a few players and rooms (named Ana, Bea, Check). Exit status: the number of
# failed checks.

set -u
base=""
cacert=""
rate_limit=no
while [ $# -gt 0 ]; do
    case "$1" in
        --cacert) cacert="$2"; shift 2 ;;
        --rate-limit) rate_limit=yes; shift ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) base="${1%/}"; shift ;;
    esac
done
case "$base" in
    https://*) ;;
    *) echo "usage: $0 https://NAME [--cacert FILE] [--rate-limit]" >&2; exit 64 ;;
esac
host="${base#https://}"
here="$(cd "$(dirname "$0")" && pwd)"
curl_opts="-s --max-time 10"
[ -n "$cacert" ] && curl_opts="$curl_opts --cacert $cacert"
failed=0
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok    $1"; }
fail() { echo "FAIL  $1"; failed=$((failed + 1)); }
# check WHAT GOT WANT: GOT must match the shell pattern WANT.
check() {
    # shellcheck disable=SC2254
    case "$2" in
        $3) ok "$1: $2" ;;
        *) fail "$1: got '$2', want '$3'" ;;
    esac
}
# c ARGS...: curl with the options above.
c() {
    # shellcheck disable=SC2086
    curl $curl_opts "$@"
}

# 1. Plain HTTP is redirected to HTTPS.
check "http:// redirects" "$(c -o /dev/null -w '%{http_code} %{redirect_url}' "http://$host/room/ABC?x=1")" \
    "301 https://$host/room/ABC?x=1"

# 2. The web client: HTML, gzipped by the server, and 304 for a file the browser already has.
check "GET /" "$(c -o /dev/null -w '%{http_code} %{content_type}' "$base/")" "200 text/html*"
c -D "$tmp/h" -o /dev/null -H 'Accept-Encoding: gzip' "$base/js/app.js"
check "gzip" "$(grep -i '^content-encoding:' "$tmp/h" | tr -d '\r' | tr 'A-Z' 'a-z')" "content-encoding: gzip"
etag="$(grep -i '^etag:' "$tmp/h" | cut -d' ' -f2- | tr -d '\r')"
check "If-None-Match" "$(c -o /dev/null -w '%{http_code}' -H 'Accept-Encoding: gzip' -H "If-None-Match: $etag" "$base/js/app.js")" "304"

# 3. Health checks through the proxy; metrics refused however spelt.
check "/readyz" "$(c -w ' %{http_code}' "$base/readyz")" '{"status":"ok"} 200'
for path in /metrics '/metrics?x=1' //metrics /%6detrics /./metrics; do
    check "GET $path" "$(c -o /dev/null -w '%{http_code}' "$base$path")" "403"
done

# 4. The REST API: a player and a room, a JSON error from the server, and nginx's own refusal of a
# large body as JSON too.
c -o "$tmp/player" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    -d '{"display_name":"Check"}' "$base/api/players" > "$tmp/status"
check "POST /api/players" "$(cat "$tmp/status")" "201"
token="$(sed -n 's/.*"token":"\([^"]*\)".*/\1/p' "$tmp/player")"
c -o "$tmp/room" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    -H "Authorization: Bearer $token" \
    -d '{"rules":"ludoteka","mode":"individual","players":4,"public":false}' "$base/api/rooms" > "$tmp/status"
check "POST /api/rooms" "$(cat "$tmp/status")" "201"
room="$(sed -n 's/^{"id":"\([^"]*\)".*/\1/p' "$tmp/room")"
check "404 from the server" "$(c -w ' %{http_code}' "$base/api/rooms/no-such-room")" '{"code":"room_not_found"*} 404'
head -c 1100000 /dev/zero | tr '\0' ' ' > "$tmp/big"
check "1.1 MB body" "$(c -w ' %{http_code} %{content_type}' -X POST -H 'Content-Type: application/json' \
    --data-binary @"$tmp/big" "$base/api/players")" '{"code":"payload_too_large"*} 413 application/json'

# 5. The WebSocket upgrade (HTTP/1.1, as browsers open WebSockets here) reaches the server: 101, with
# the token offered as the web client offers it (Sec-WebSocket-Protocol, passed through by nginx) and
# the server's answer passed back; then with the deprecated ?token= of older clients.
c --http1.1 -i -N --max-time 3 -o "$tmp/ws" \
    -H 'Connection: Upgrade' -H 'Upgrade: websocket' -H 'Sec-WebSocket-Version: 13' \
    -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' \
    -H "Sec-WebSocket-Protocol: parchis, parchis.token.$token" \
    "$base/api/rooms/$room/ws"
check "WebSocket upgrade" "$(head -n 1 "$tmp/ws" | tr -d '\r')" "HTTP/1.1 101*"
check "WebSocket subprotocol" "$(grep -i '^sec-websocket-protocol:' "$tmp/ws" | tr -d '\r' | tr 'A-Z' 'a-z')" \
    "sec-websocket-protocol: parchis"
check "WebSocket snapshot" "$(grep -c '"type":"snapshot"' "$tmp/ws")" "[1-9]*"
c --http1.1 -i -N --max-time 3 -o "$tmp/ws-query" \
    -H 'Connection: Upgrade' -H 'Upgrade: websocket' -H 'Sec-WebSocket-Version: 13' \
    -H 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==' \
    "$base/api/rooms/$room/ws?token=$token"
check "WebSocket upgrade, token in the URL" "$(head -n 1 "$tmp/ws-query" | tr -d '\r')" "HTTP/1.1 101*"

# 6. A game played through the site (both players over wss://).
python="${PYTHON:-python3}"
if "$python" -c 'import websockets' 2>/dev/null; then
    if "$python" "$here/ws-game.py" "$base" ${cacert:+--cacert "$cacert"} --moves 8 > "$tmp/game" 2>&1; then
        ok "a game through the site ($(tail -n 1 "$tmp/game" | sed 's/^ok //'))"
    else
        fail "a game through the site:"; sed 's/^/      /' "$tmp/game"
    fi
else
    echo "skip  a game through the site: no websockets package for $python (PYTHON=venv/bin/python)"
fi

# 7. Optional: the write limit is per client address, and made-up forwarding headers do not escape it.
if [ "$rate_limit" = yes ]; then
    i=0
    while [ $i -lt 70 ]; do
        i=$((i + 1))
        c -o /dev/null -w '%{http_code}\n' -X POST -H 'Content-Type: application/json' \
            -H "X-Forwarded-For: 10.77.0.$i" -H "X-Real-IP: 10.78.0.$i" -H "Forwarded: for=10.79.0.$i" \
            -d '{"display_name":"Check"}' "$base/api/players"
    done > "$tmp/limit"
    check "70 writes with made-up forwarding headers" "$(tail -n 1 "$tmp/limit")" "429"
fi

# 8. On the nginx machine: no token in its logs (the WebSockets above carried one in a header and in
# their URL).
for log in /var/log/nginx/parchis.access.log /var/log/nginx/parchis.error.log; do
    if [ -r "$log" ]; then
        check "no token in $log" "$(grep -c -e 'token=' -e "$token" "$log")" "0"
    fi
done

echo "$failed failed"
exit "$failed"
