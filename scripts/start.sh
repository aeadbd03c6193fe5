#!/usr/bin/env bash
# npm start: install what is missing, build the web app, migrate and serve everything on one port.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh janus
npm run build --silent
exec node --import tsx apps/server/src/server.ts
