#!/bin/sh
# The old name of deploy/check-proxy.sh, which checks a site behind nginx or Caddy: same options.
exec "$(dirname "$0")/check-proxy.sh" "$@"
