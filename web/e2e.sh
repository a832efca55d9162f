#!/usr/bin/env bash
# web/e2e.sh — the browser client end to end: a headless server serving web/dist, a room link
# opened in headless Chromium (WebGL2 on SwiftShader), a round against a native watcher, movement
# keys held in the page, and the browser's cook seen moving by the watcher (web/e2e.mjs).
# `--mode tandem` plays an online Tandem round instead: the page holds the couch's aft handle,
# the watcher the fore one (idle), and the watcher's `--stats` must show the page's orders in
# force on the server and the couch moved by them.
# `--mode directory` is Play online in the page: a directory and a second server are started,
# the page (with `?directory=`) lists the second server's public room, and its Quick match
# takes the page to that server, seated in that room.
#
#   web/build.sh && web/e2e.sh [--mode kitchen|tandem|directory] [SCREENSHOT.png]
#
# Needs web/dist (web/build.sh), node and chromium (installed from apt when missing). The server
# is UNDERCOOKED_BIN when set, else a debug server-only build (`--features server`, quick).
# Prints web/e2e.mjs's JSON line (first frame, join and round times, the screenshot's colour
# count, the browser's traffic in the round, what the watcher saw); exit 0 when it all happened.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source .ci/lib.sh

mode=kitchen
if [ "${1:-}" = "--mode" ]; then
  mode=${2:-}
  shift 2 || true
fi
case "$mode" in
  kitchen | tandem | directory) ;;
  *)
    uc_log "usage: web/e2e.sh [--mode kitchen|tandem|directory] [SCREENSHOT.png]"
    exit 2
    ;;
esac
shot=${1:-web/e2e-screenshot.png}
if [ ! -f web/dist/undercooked_bg.wasm ] || [ ! -f web/dist/index.html ]; then
  uc_log "web/dist has no browser build: run web/build.sh first"
  exit 2
fi
command -v node >/dev/null 2>&1 || {
  uc_log "node is needed (apt-get install nodejs)"
  exit 2
}
command -v chromium >/dev/null 2>&1 || uc_need_apt chromium
bin=${UNDERCOOKED_BIN:-}
if [ -z "$bin" ]; then
  uc_need_rust
  cargo build --locked --quiet --no-default-features --features server --bin undercooked
  bin="$CARGO_TARGET_DIR/debug/undercooked"
fi

work=$(mktemp -d)
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

"$bin" --headless --bind 127.0.0.1 --port 0 --web-port 0 --data-dir "$work/data" \
  --web-root web/dist >"$work/server.log" 2>&1 &
server=$!
web=
for _ in $(seq 200); do
  web=$(sed -n 's/.*web http:\/\/\([0-9.:]*\).*/\1/p' "$work/server.log" | head -1)
  [ -n "$web" ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$web" ]; then
  uc_log "the server did not start:"
  cat "$work/server.log" >&2
  exit 1
fi
uc_log "server at http://$web (log $work/server.log)"

rc=0
node web/e2e.mjs --bin "$bin" --web "$web" --shot "$shot" --mode "$mode" || rc=$?
if [ "$rc" -ne 0 ]; then
  uc_log "server log (last 40 lines):"
  tail -40 "$work/server.log" >&2
fi
exit "$rc"
