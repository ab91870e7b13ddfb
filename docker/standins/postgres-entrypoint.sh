#!/bin/sh
# The official postgres image's start, in short: at the first start (an empty $PGDATA) initdb with
# POSTGRES_USER (default postgres) and POSTGRES_PASSWORD (required), password logins over TCP, then
# POSTGRES_DB (default: the user's name) created; then the server as user postgres, listening on every
# interface of the container.
set -eu
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
mkdir -p "$PGDATA" /var/run/postgresql
chown postgres:postgres "$PGDATA" /var/run/postgresql
chmod 0700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "error: database is uninitialized and POSTGRES_PASSWORD is not set" >&2
    exit 1
  fi
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  chown postgres "$pwfile"
  as_postgres initdb -D "$PGDATA" --username="$POSTGRES_USER" --pwfile="$pwfile" \
    --encoding=UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
  if [ "$POSTGRES_DB" != postgres ]; then
    as_postgres pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
    as_postgres psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d postgres -q \
      -c "CREATE DATABASE \"$POSTGRES_DB\""
    as_postgres pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
  fi
  echo "PostgreSQL init process complete; ready for start up."
fi
if [ "$1" = postgres ]; then
  shift
  exec setpriv --reuid=postgres --regid=postgres --init-groups postgres -D "$PGDATA" -c listen_addresses='*' "$@"
fi
exec "$@"
