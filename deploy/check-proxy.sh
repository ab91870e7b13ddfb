#!/bin/sh
# Checks a parchis site behind nginx (deploy/nginx.conf) or Caddy (deploy/Caddyfile) from the outside,
# the way players reach it. See DEPLOY.md, sections 4 and 5. deploy/check-nginx.sh is the same check
# under its old name. CI runs it against both configurations through deploy/check-proxies.sh.
#
#   deploy/check-proxy.sh https://parchis.example.org [--cacert FILE] [--rate-limit]
#       [--resolve ADDRESS] [--http-port N] [--log FILE]... [--tokens-file FILE]
#
# --cacert FILE      trust this certificate (a self-signed one, for a test name)
# --rate-limit       also check that the write limit holds behind the proxy: 70 POSTs, each with a
#                    made-up X-Forwarded-For, X-Real-IP and Forwarded, must meet 429 rate_limited. This
#                    uses up this machine's address's API writes for a minute: players there get 429.
# --resolve ADDRESS  connect to ADDRESS for the site's name (a test name that no DNS knows)
# --http-port N      the port of plain HTTP (80), whose redirect to HTTPS is checked
# --log FILE         a proxy log to search for tokens (repeat for each); default: those of
#                    deploy/nginx.conf and deploy/Caddyfile that this user may read
# --tokens-file FILE append every token issued here to FILE, one a line
#
# Needs curl. With python3 and its `websockets` package (PYTHON=/path/to/venv/bin/python to pick
# one), it also plays a game through the site with deploy/ws-game.py. Run on the proxy's machine, it
# reads the proxy's logs (when it may) and fails if a token issued here is in them. It creates a few
# players and rooms (named Ana, Bea, Check). Exit status: the number of failed checks.

set -u
base=""
cacert=""
rate_limit=no
resolve=""
http_port=80
logs=""
tokens_file=""
while [ $# -gt 0 ]; do
    case "$1" in
        --cacert) cacert="$2"; shift 2 ;;
        --rate-limit) rate_limit=yes; shift ;;
        --resolve) resolve="$2"; shift 2 ;;
        --http-port) http_port="$2"; shift 2 ;;
        --log) logs="$logs $2"; shift 2 ;;
        --tokens-file) tokens_file="$2"; shift 2 ;;
        -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
        *) base="${1%/}"; shift ;;
    esac
done
case "$base" in
    https://*) ;;
    *) echo "usage: $0 https://NAME[:PORT] [--cacert FILE] [--rate-limit] [--resolve ADDRESS]" \
           "[--http-port N] [--log FILE]... [--tokens-file FILE]" >&2; exit 64 ;;
esac
host="${base#https://}"
name="${host%%:*}"
port="${host#"$name"}"; port="${port#:}"; port="${port:-443}"
here="$(cd "$(dirname "$0")" && pwd)"
curl_opts="-s --max-time 10"
[ -n "$cacert" ] && curl_opts="$curl_opts --cacert $cacert"
ws_resolve=""
if [ -n "$resolve" ]; then
    curl_opts="$curl_opts --resolve $name:$port:$resolve --resolve $name:$http_port:$resolve"
    ws_resolve="$name:$port:$resolve"
fi
[ -n "$logs" ] || logs="/var/log/nginx/parchis.access.log /var/log/nginx/parchis.error.log
    /var/log/caddy/parchis.access.log"
failed=0
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/tokens"

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

# 1. Plain HTTP is redirected to HTTPS (nginx: 301, Caddy: 308).
http_base="http://$name"; [ "$http_port" = 80 ] || http_base="$http_base:$http_port"
got="$(c -o /dev/null -w '%{http_code} %{redirect_url}' "$http_base/room/ABC?x=1")"
case "$got" in
    "30"[178]" https://$name/room/ABC?x=1"|"30"[178]" https://$host/room/ABC?x=1") ok "http:// redirects: $got" ;;
    *) fail "http:// redirects: got '$got', want '301 https://$name/room/ABC?x=1' or a 308" ;;
esac

# 2. The web client: HTML, gzipped by the server, and 304 for a file the browser already has.
c -D "$tmp/h" -o /dev/null -w '%{http_code} %{content_type}' "$base/" > "$tmp/status"
check "GET /" "$(cat "$tmp/status")" "200 text/html*"
# Which proxy answers (its Server header: "nginx/1.22.1", "Caddy").
server_header="$(grep -i '^server:' "$tmp/h" | cut -d' ' -f2- | tr -d '\r')"
echo "      proxy: ${server_header:-no Server header}"
# HSTS on the proxied pages and on the proxy's own answers (/metrics' 403 below).
hsts() { grep -i '^strict-transport-security:' "$1" | tr -d '\r' | tr 'A-Z' 'a-z'; }
check "HSTS on /" "$(hsts "$tmp/h")" "strict-transport-security: max-age=31536000"
c -D "$tmp/h" -o /dev/null -H 'Accept-Encoding: gzip' "$base/js/app.js"
check "gzip" "$(grep -i '^content-encoding:' "$tmp/h" | tr -d '\r' | tr 'A-Z' 'a-z')" "content-encoding: gzip"
etag="$(grep -i '^etag:' "$tmp/h" | cut -d' ' -f2- | tr -d '\r')"
check "If-None-Match" "$(c -o /dev/null -w '%{http_code}' -H 'Accept-Encoding: gzip' -H "If-None-Match: $etag" "$base/js/app.js")" "304"

# 3. Health checks through the proxy; metrics refused however spelt.
check "/readyz" "$(c -w ' %{http_code}' "$base/readyz")" '{"status":"ok"} 200'
for path in /metrics '/metrics?x=1' //metrics /%6detrics /./metrics; do
    check "GET $path" "$(c -o /dev/null -w '%{http_code}' "$base$path")" "403"
done
c -D "$tmp/h" -o /dev/null "$base/metrics"
check "HSTS on /metrics' 403" "$(hsts "$tmp/h")" "strict-transport-security: max-age=31536000"

# 4. The REST API: a player and a room, a JSON error from the server, and nginx's own refusal of a
# large body as JSON too (Caddy sets no limit of its own: the server answers, in JSON).
c -o "$tmp/player" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    -d '{"display_name":"Check"}' "$base/api/players" > "$tmp/status"
check "POST /api/players" "$(cat "$tmp/status")" "201"
token="$(sed -n 's/.*"token":"\([^"]*\)".*/\1/p' "$tmp/player")"
echo "$token" >> "$tmp/tokens"
c -o "$tmp/room" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
    -H "Authorization: Bearer $token" \
    -d '{"rules":"ludoteka","mode":"individual","players":4,"public":false}' "$base/api/rooms" > "$tmp/status"
check "POST /api/rooms" "$(cat "$tmp/status")" "201"
room="$(sed -n 's/^{"id":"\([^"]*\)".*/\1/p' "$tmp/room")"
check "404 from the server" "$(c -w ' %{http_code}' "$base/api/rooms/no-such-room")" '{"code":"room_not_found"*} 404'
head -c 1100000 /dev/zero | tr '\0' ' ' > "$tmp/big"
case "$server_header" in
    nginx*) want_big='{"code":"payload_too_large"*} 413 application/json' ;;
    *) want_big='{"code":"*} 4[0-9][0-9] application/json' ;;
esac
check "1.1 MB body" "$(c -w ' %{http_code} %{content_type}' -X POST -H 'Content-Type: application/json' \
    --data-binary @"$tmp/big" "$base/api/players")" "$want_big"

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
    if "$python" "$here/ws-game.py" "$base" ${cacert:+--cacert "$cacert"} ${ws_resolve:+--resolve "$ws_resolve"} \
        --tokens-file "$tmp/tokens" --moves 8 > "$tmp/game" 2>&1; then
        ok "a game through the site ($(tail -n 1 "$tmp/game" | sed 's/^ok //'))"
    else
        fail "a game through the site:"; sed 's/^/      /' "$tmp/game"
    fi
else
    echo "skip  a game through the site: no websockets package for $python (PYTHON=venv/bin/python)"
fi

# 7. Optional: the write limit is per client address, and made-up forwarding headers do not escape it.
if [ "$rate_limit" = yes ]; then
    # The limit refills one write a second (60 a minute), so a write may go through between 429s: the
    # check is that 429s come at all (each made-up address escaping it would have a full minute's worth).
    i=0
    : > "$tmp/limit-429"
    while [ $i -lt 70 ]; do
        i=$((i + 1))
        c -o "$tmp/limit-body" -w '%{http_code}\n' -X POST -H 'Content-Type: application/json' \
            -H "X-Forwarded-For: 10.77.0.$i" -H "X-Real-IP: 10.78.0.$i" -H "Forwarded: for=10.79.0.$i" \
            -d '{"display_name":"Check"}' "$base/api/players" > "$tmp/limit-status"
        cat "$tmp/limit-status"
        [ "$(cat "$tmp/limit-status")" = 429 ] && cp "$tmp/limit-body" "$tmp/limit-429"
        sed -n 's/.*"token":"\([^"]*\)".*/\1/p' "$tmp/limit-body" >> "$tmp/tokens"
    done > "$tmp/limit"
    check "70 writes with made-up forwarding headers" \
        "$(grep -c '^201$' "$tmp/limit") x 201, $(grep -c '^429$' "$tmp/limit") x 429, $(grep -vc '^\(201\|429\)$' "$tmp/limit") other" \
        "* x 201, [1-9]* x 429, 0 other"
    check "the 429's code" "$(cat "$tmp/limit-429")" '{"code":"rate_limited"*'
fi
[ -n "$tokens_file" ] && cat "$tmp/tokens" >> "$tokens_file"

# 8. On the proxy's machine: no token issued above in its logs (the WebSockets above carried one in a
# header and in their URL), nor a token= with a value or a parchis.token. subprotocol.
for log in $logs; do
    if [ -r "$log" ]; then
        check "no token in $log (issued; token=... or parchis.token....)" \
            "$(grep -c -F -f "$tmp/tokens" "$log") $(grep -c -E 'token=[0-9a-f]|parchis\.token\.' "$log")" "0 0"
    fi
done

echo "$failed failed"
exit "$failed"
