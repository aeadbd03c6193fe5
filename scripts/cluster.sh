#!/usr/bin/env bash
# npm run cluster: the production topology on this machine (HAProxy with TLS, two app nodes that HAProxy reaches
# over TLS and that sign their messages through Redis (CLUSTER_SECRET), two Janus, coturn
# when deploy/coturn/turnserver.conf exists, with deploy/coturn/turn-to-janus.nft loaded for its relay address), inside a private network namespace so nothing it opens is reachable
# from outside and Janus gathers on 127.0.0.2 (scripts/in-netns.sh). Needs root (unshare).
#   DATABASE_URL  the shared PostgreSQL; default: this machine's, through its Unix socket (reachable from the
#                 namespace, unlike 127.0.0.1:5432), database "videomote"
#   REDIS_URL     optional: a Redis reachable inside the namespace; by default a private redis-server is started
#   CLUSTER_PORT  the public TLS port (default 8443)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh janus haproxy redis-server coturn openssl nftables
npm run build --silent
if [ -z "${DATABASE_URL:-}" ] && [ -S /var/run/postgresql/.s.PGSQL.5432 ]; then
  export DATABASE_URL="postgres://postgres@/videomote?host=/var/run/postgresql"
fi
if [ "${VIDEOMOTE_IN_NETNS:-}" = 1 ]; then
  exec node --import tsx scripts/cluster/main.ts
fi
exec unshare --net env VIDEOMOTE_IN_NETNS=1 bash scripts/in-netns.sh node --import tsx scripts/cluster/main.ts
