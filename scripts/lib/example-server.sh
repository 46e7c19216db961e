# Sourced by the checker scripts: build when stale, make a work directory removed on exit, and start the built
# server over HTTP on the example shelf on a free port. Sets WORK, SERVER_PID and URL; CHECKER names the caller
# in messages. Run from the project root.

# Build when dist/ is missing or older than any source file.
if [ ! -f dist/cli.js ] || [ -n "$(find src -newer dist/cli.js -name '*.ts' -print -quit)" ]; then
  npm run build >/dev/null || { echo "$CHECKER: npm run build failed" >&2; exit 1; }
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/skillshelf-$CHECKER-XXXXXX")"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# The shelf served: the example shelf, or SKILLSHELF_EXAMPLE_CONFIG (e.g. test/fixtures/lenient.yaml); a caller
# that serves directories instead sets SERVE_SHELF to them before starting.
EXAMPLE_CONFIG="${SKILLSHELF_EXAMPLE_CONFIG:-plugins.example.yaml}"
SERVE_SHELF=(--config "$EXAMPLE_CONFIG")

# Start the HTTP server and wait for the startup line that names the URL.
start_example_server() {
  node dist/cli.js serve --transport http --host 127.0.0.1 --port 0 "${SERVE_SHELF[@]}" --cache-dir "$WORK/cache" 2>"$WORK/server.log" &
  SERVER_PID=$!
  URL=""
  for _ in $(seq 1 200); do
    URL="$(grep -o 'listening on http://[^ ]*/mcp' "$WORK/server.log" | head -n 1 | sed 's/^listening on //')"
    [ -n "$URL" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$URL" ]; then
    echo "$CHECKER: the HTTP server did not start:" >&2
    cat "$WORK/server.log" >&2
    exit 1
  fi
}
