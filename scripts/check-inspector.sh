#!/usr/bin/env bash
# The MCP Inspector CLI as an external client of the built server, on the example shelf:
#   resources/list over stdio and over HTTP, and skills/list --verify (SEP-2640 conformance plus a digest check
#   of every file) over stdio, over HTTP, and over HTTP in the 2026-07-28 era (--protocol-era modern).
# HOME is a temporary directory, so the inspector's catalog and state never touch the user's; npx keeps using
# the user's npm cache. Exits non-zero when any step fails; prints a summary table either way.
set -uo pipefail

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
STDIO_SERVER=(-- node dist/cli.js serve --transport stdio --config "$EXAMPLE_CONFIG")
# The first library's index must be listed: skill://engineering/_index.md on the example shelf.
FIRST_INDEX="skill://${SKILLSHELF_EXAMPLE_LIBRARY:-engineering}/_index.md"

start_example_server

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
      const json = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
      const uris = json.resources.map((r) => r.uri);
      if (!uris.includes(process.argv[2])) throw new Error(`${process.argv[2]} is not listed`);
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

run "stdio  resources/list" resources --method resources/list "${STDIO_SERVER[@]}"
run "http   resources/list" resources "$URL" --method resources/list
run "stdio  skills/list --verify" verify --method skills/list --verify "${STDIO_SERVER[@]}"
run "http   skills/list --verify" verify "$URL" --method skills/list --verify
run "http   skills/list --verify --protocol-era modern" verify "$URL" --method skills/list --verify --protocol-era modern

echo
echo "MCP Inspector CLI (${INSPECTOR#@modelcontextprotocol/}) against skillshelf on $EXAMPLE_CONFIG (HTTP at $URL)"
printf '%-50s %-5s %s\n' "step" "exit" "result"
for row in "${ROWS[@]}"; do echo "$row"; done
if [ "$FAILED" -ne 0 ]; then
  echo "check-inspector: FAILED"
  exit 1
fi
echo "check-inspector: all steps passed"
