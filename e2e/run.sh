#!/usr/bin/env bash
# Browser end-to-end tests: installs the pinned playwright-core and axe-core (no browser download) and runs
# node's test runner against the real server binary with Debian's Chromium (/usr/bin/chromium).
# Screenshots land in target/e2e/.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "Chromium not found at ${CHROMIUM_PATH:-/usr/bin/chromium}: apt-get install -y chromium" >&2
  exit 1
fi
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
npm ci --no-audit --no-fund --loglevel=error
(cd .. && cargo build -q -p parchis-server)
export E2E_SKIP_BUILD=1
mkdir -p ../target/e2e
exec node --test --test-concurrency=1 --test-reporter=spec "${@:-tests/}"
