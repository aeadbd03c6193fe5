#!/usr/bin/env bash
# Runs a command inside a private network namespace (run under `unshare --net`): loopback up, plus one
# non-loopback device holding 127.0.0.2, because Janus never gathers ICE candidates on a loopback interface.
# All media then flows 127.0.0.2 <-> 127.0.0.2 and no packet leaves the namespace.
set -euo pipefail
ip link set lo up
ip link add vmifb0 type ifb 2>/dev/null || ip link add vmifb0 type veth peer name vmifb1
ip addr add 127.0.0.2/32 dev vmifb0
ip link set vmifb0 up
export JANUS_ICE_ENFORCE=127.0.0.2
exec "$@"
