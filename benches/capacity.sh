#!/usr/bin/env bash
# benches/capacity.sh — the server's capacity run (docs/PERFORMANCE.md, "Capacity"): a sharded
# headless server pinned to vCPU 0, one load generator (`join --rooms`) pinned to vCPU 1, random
# inputs, then what both measured.
#
#   benches/capacity.sh [ROOMS=100] [SECONDS=60] [SHARDS=13]
#
# The generator's connections are lean (`join --lean`: netcode and renet spoken directly, no
# Bevy app each), so it can drive a thousand seats from one vCPU; GENERATOR=full uses the
# headless client instead (a Bevy app per connection, ~5x the generator's CPU per step).
# The server is pinned to the vCPUs in SERVER_CPUS (default 0: one vCPU, the generator alone on
# the other); SERVER_CPUS=0,1 gives it the whole box, as a host's server has, while the
# generator still takes its share of vCPU 1 — the box's ceiling, measured conservatively.
# The binary is UNDERCOOKED_BIN when set, else a release server-only build. Writes everything to
# OUT (default /tmp/uc-capacity): server.out/.err (the `tick time` windows every 10 s and the
# `tick times` summary per shard at exit), gen.out (the generator's `--stats` line) and
# summary.txt (server CPU and RSS while the generator drove, the generator's line without its
# per-room list). Run it with nothing else busy: the numbers are a two-vCPU box's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rooms=${1:-100}
seconds=${2:-60}
shards=${3:-13}
out=${OUT:-/tmp/uc-capacity}
lean=(--lean)
case "${GENERATOR:-lean}" in
  lean) ;;
  full) lean=() ;;
  *) echo "GENERATOR is lean or full, not '$GENERATOR'" >&2; exit 2 ;;
esac
bin=${UNDERCOOKED_BIN:-}
if [ -z "$bin" ]; then
  source .ci/lib.sh
  cargo build --locked --quiet --release --no-default-features --features server --bin undercooked
  bin="$CARGO_TARGET_DIR/release/undercooked"
fi
rm -rf "$out" && mkdir -p "$out"
# Two vCPUs or more: the server on the first, the generator on the second.
pin_server=() pin_gen=()
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
  pin_server=(taskset -c "${SERVER_CPUS:-0}") pin_gen=(taskset -c 1)
fi

"${pin_server[@]}" "$bin" --headless --port 0 --web-port 0 --bind 127.0.0.1 \
  --data-dir "$out/data" --max-rooms $((rooms + 28)) --shards "$shards" \
  --rooms-per-address 0 --rooms-per-minute 0 \
  >"$out/server.out" 2>"$out/server.err" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
# Many shards take a while to start (each loads the levels): wait up to a minute.
for _ in $(seq 600); do grep -q "web http" "$out/server.out" 2>/dev/null && break; sleep 0.1; done
web=$(grep -o 'web http://[0-9.:]*' "$out/server.out" | sed 's|web http://||')
[ -n "$web" ] || { echo "the server did not start: $out/server.err" >&2; tail -5 "$out/server.err" >&2; exit 1; }
rss() { awk '/^VmRSS/ {printf "%.1f MB", $2 / 1000}' "/proc/$server/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server/stat"; }
rss_idle=$(rss)

"${pin_gen[@]}" "$bin" join "$web" --create --rooms "$rooms" --clients 4 --name L --headless \
  --inputs random --seconds "$seconds" --frame-ms 50 --stats "${lean[@]}" >"$out/gen.out" 2>"$out/gen.err" &
gen=$!
# The generator says `joined …` when every room is made and every connection opened: from
# then on the rooms are live (after their 3 s countdown); measure the server from there.
until grep -q '^joined' "$out/gen.err" 2>/dev/null; do
  kill -0 "$gen" 2>/dev/null || { cat "$out/gen.err" >&2; exit 1; }
  sleep 0.2
done
sleep 5
c0=$(cpu_ticks) t0=$(date +%s.%N)
sleep $((seconds - 10))
c1=$(cpu_ticks) t1=$(date +%s.%N)
rss_live=$(rss)
wait "$gen"
kill -TERM "$server" && wait "$server" || true
trap - EXIT
hz=$(getconf CLK_TCK)
{
  echo "rooms $rooms, shards $shards, generator ${GENERATOR:-lean} $seconds s, server on vCPU ${SERVER_CPUS:-0}"
  echo "server CPU (cores, from 5 s after the last join to 5 s before the end):" \
    "$(echo "($c1 - $c0) / $hz / ($t1 - $t0)" | bc -l | cut -c1-5)"
  echo "server RSS: idle $rss_idle, live $rss_live"
  # Every shard's 10 s windows with live rounds: the spread of their frame p99 (the target is
  # each window's p99 <= 10 ms) and of the thread's CPU per frame (p50).
  grep 'tick time ' "$out/server.err" | grep 'live_rounds=[1-9]' >"$out/windows.txt" || true
  spread() {
    grep -o "\"$1\":{[^}]*}" "$out/windows.txt" | grep -o "\"$2\":[0-9.]*" | cut -d: -f2 | sort -n |
      awk '{a[NR] = $1} END {if (NR) printf "%d windows: min %s, median %s, p90 %s, max %s ms", NR, a[1], a[int((NR + 1) / 2)], a[int((NR * 9 + 9) / 10)], a[NR]}'
  }
  echo "shard frame p99 per window: $(spread total_ms p99)"
  echo "shard CPU p50 per window: $(spread cpu_ms p50)"
  echo "generator: $(tail -n 1 "$out/gen.out" | sed 's/"per_room":\[[^]]*\],\{0,1\}//')"
} | tee "$out/summary.txt"
