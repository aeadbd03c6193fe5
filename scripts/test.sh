#!/usr/bin/env bash
# npm test: install what is missing, then every suite. Unit and API tests run here on PGlite; the browser and
# media suites run inside a private network namespace (scripts/in-netns.sh) so WebRTC stays on 127.0.0.0/8.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh chromium firefox-esr janus coturn iproute2 iptables nftables slapd ldap-utils openssl haproxy redis-server || exit 1
npm run build --silent || exit 1

reports=${REPORT_DIR:-$(mktemp -d)}
status=0
npx vitest run --project unit --project api --reporter=default --reporter=json --outputFile.json="$reports/unit-api.json" "$@" || status=1

if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null && unshare --net true 2>/dev/null; then
  unshare --net bash scripts/in-netns.sh npx vitest run --project e2e --reporter=default --reporter=json --outputFile.json="$reports/e2e.json" "$@" || status=1
else
  echo "SKIPPED: browser and media suites (e2e) need root to make a private network namespace (unshare --net)."
fi

node scripts/summarise-tests.mjs "$reports"/*.json
exit $status
