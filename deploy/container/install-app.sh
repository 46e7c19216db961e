#!/bin/sh
# Installs skillshelf into DEST the way the container image holds it: exactly the files `npm pack` publishes
# (dist/, config.schema.json, package.json, README.md), the lockfile, the production dependencies the lockfile
# pins (no devDependencies, no install scripts), and the HEALTHCHECK probe. SRC is a checkout whose dist/ is built.
# The Dockerfile's build stage runs this script; test/deploy/container.test.ts runs it outside a container.
#   usage: sh deploy/container/install-app.sh SRC DEST
set -eu
if [ "$#" -ne 2 ]; then
  echo "usage: $0 SRC DEST" >&2
  exit 2
fi
src=$(cd "$1" && pwd)
dest=$2
if [ ! -f "$src/dist/cli.js" ]; then
  echo "$0: $src/dist/cli.js is missing: build first (npm run build)" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
tarball=$(cd "$src" && npm pack --ignore-scripts --silent --pack-destination "$work")
mkdir -p "$dest"
tar -xzf "$work/$tarball" -C "$dest" --strip-components=1 --no-same-owner
cp "$src/package-lock.json" "$dest/package-lock.json"
cp "$src/deploy/container/healthcheck.mjs" "$dest/healthcheck.mjs"
cd "$dest"
npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error
