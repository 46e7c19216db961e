#!/usr/bin/env bash
# The MCP Inspector CLI as an external client of the built server, on the example shelf (or on directories, or
# against a server already running):
#   resources/list over stdio and over HTTP, and skills/list --verify (SEP-2640 conformance plus a digest check
#   of every file) over stdio, over HTTP, and over HTTP in the 2026-07-28 era (--protocol-era modern).
# HOME is a temporary directory, so the inspector's catalog and state never touch the user's; npx keeps using
# the user's npm cache. Exits non-zero when any step fails; prints a summary table either way.
#   npm run check:inspector                       the example shelf, over stdio and HTTP
#   npm run check:inspector -- DIR…               skill directories served zero-config, over stdio and HTTP
#   npm run check:inspector -- --url URL          a running server's /mcp, over HTTP only; the bearer token, if
#                                                 it needs one, from SKILLSHELF_TOKEN
set -uo pipefail

TARGET_URL=""
DIRS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --url) TARGET_URL="${2:-}"; shift 2 || { echo "check-inspector: --url needs a URL" >&2; exit 2; } ;;
    --url=*) TARGET_URL="${1#--url=}"; shift ;;
    -*) echo "check-inspector: unknown option $1 (give --url URL, or directories)" >&2; exit 2 ;;
    *) DIRS+=("$(cd "$1" 2>/dev/null && pwd)") || { echo "check-inspector: no directory $1" >&2; exit 2; }; shift ;;
  esac
done
if [ -n "$TARGET_URL" ] && [ ${#DIRS[@]} -gt 0 ]; then
  echo "check-inspector: give --url or directories, not both" >&2
  exit 2
fi

INSPECTOR="@modelcontextprotocol/inspector@2.12.0"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

NPM_CACHE="$(npm config get cache)"
CHECKER=check-inspector
# shellcheck source=scripts/lib/example-server.sh
source "$ROOT/scripts/lib/example-server.sh"
mkdir -p "$WORK/home"
export HOME="$WORK/home"
export npm_config_cache="$NPM_CACHE"

# The server command, after `--`: the inspector has a --config flag of its own, so without the separator it
# would take ours (`--config plugins.example.yaml`) as its session file.
if [ ${#DIRS[@]} -gt 0 ]; then SERVE_SHELF=("${DIRS[@]}"); fi
STDIO_SERVER=(-- node dist/cli.js serve --transport stdio "${SERVE_SHELF[@]}")
# On the example shelf the first library's index must be listed (skill://engineering/_index.md); elsewhere the
# listing must not be empty.
FIRST_INDEX=""
if [ ${#DIRS[@]} -eq 0 ] && [ -z "$TARGET_URL" ]; then FIRST_INDEX="skill://${SKILLSHELF_EXAMPLE_LIBRARY:-engineering}/_index.md"; fi
HEADER=()
if [ -n "$TARGET_URL" ]; then
  URL="$TARGET_URL"
  if [ -n "${SKILLSHELF_TOKEN:-}" ]; then HEADER=(--header "Authorization: Bearer $SKILLSHELF_TOKEN"); fi
else
  start_example_server
fi

FAILED=0
ROWS=()

# run <label> <expect: resources|verify> <inspector args…>
run() {
  local label="$1" expect="$2"
  shift 2
  local log="$WORK/step-${#ROWS[@]}.log" code result
  npx -y "$INSPECTOR" --cli "$@" >"$log" 2>&1
  code=$?
  if [ "$expect" = resources ]; then
    # The listing is JSON on stdout: count its rows, and check the first index is there.
    result="$(node -e '
      const text = require("fs").readFileSync(process.argv[1], "utf8");
      // The listing starts on a line of its own: npm may print warnings holding braces before it.
      const json = JSON.parse(text.slice(text.search(/^\{\s*$/m), text.lastIndexOf("}") + 1));
      const uris = json.resources.map((r) => r.uri);
      if (process.argv[2] !== "" && !uris.includes(process.argv[2])) throw new Error(`${process.argv[2]} is not listed`);
      if (uris.length === 0) throw new Error("nothing is listed");
      console.log(`${uris.length} resources: ${uris.join(" ")}`);
    ' "$log" "$FIRST_INDEX" 2>&1)"
    local parsed=$?
    result="$(tail -n 1 <<<"$result")"
    if [ "$parsed" -ne 0 ] && [ "$code" -eq 0 ]; then code=1; fi
  else
    result="$(grep -E '^Verified ' "$log" | tail -n 1)"
    if [ -z "$result" ]; then
      result="$(tail -n 1 "$log")"
      if [ "$code" -eq 0 ]; then code=1; fi
    fi
  fi
  ROWS+=("$(printf '%-50s %-5s %s' "$label" "$code" "$result")")
  if [ "$code" -ne 0 ]; then
    FAILED=1
    echo "---- $label failed (exit $code); the inspector printed:" >&2
    cat "$log" >&2
  fi
}

if [ -z "$TARGET_URL" ]; then run "stdio  resources/list" resources --method resources/list "${STDIO_SERVER[@]}"; fi
run "http   resources/list" resources "$URL" "${HEADER[@]}" --method resources/list
if [ -z "$TARGET_URL" ]; then run "stdio  skills/list --verify" verify --method skills/list --verify "${STDIO_SERVER[@]}"; fi
run "http   skills/list --verify" verify "$URL" "${HEADER[@]}" --method skills/list --verify
run "http   skills/list --verify --protocol-era modern" verify "$URL" "${HEADER[@]}" --method skills/list --verify --protocol-era modern

echo
if [ -n "$TARGET_URL" ]; then
  echo "MCP Inspector CLI (${INSPECTOR#@modelcontextprotocol/}) against the server at $URL"
else
  echo "MCP Inspector CLI (${INSPECTOR#@modelcontextprotocol/}) against skillshelf on ${SERVE_SHELF[*]} (HTTP at $URL)"
fi
printf '%-50s %-5s %s\n' "step" "exit" "result"
for row in "${ROWS[@]}"; do echo "$row"; done
if [ "$FAILED" -ne 0 ]; then
  echo "check-inspector: FAILED"
  exit 1
fi
echo "check-inspector: all steps passed"
