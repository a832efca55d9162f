#!/usr/bin/env bash
# benches/churn.sh — the server's churn run (docs/PERFORMANCE.md, "Churn"): one headless server,
# 64 clients that keep connecting, playing and dropping for DURATION seconds, and the server
# process's RSS, thread count and open file descriptors (sockets included) sampled every 10 s.
#
#   benches/churn.sh [DURATION=600] [CLIENTS=64]
#
# CLIENTS/4 loops each run `join --create --clients 4 --headless --inputs random` for a seeded
# random 4–20 s, then exit (all four connections drop at once), then start again: every loop's
# rooms are created, played and left empty, and the server reclaims them (--empty-room-secs 5).
# Every other loop goes through the WebSocket relay (--ws), so both transports churn. At the end
# it prints the three series and, for each, whether it is flat: the mean of the last third of the
# samples is within 10% (plus 2 units) of the first third's. Exit 0 all flat, 1 one grew.
# The binary is UNDERCOOKED_BIN when set, else a release server-only build. OUT (default
# /tmp/uc-churn) gets server.out/.err, samples.tsv and the loops' logs. SEED (default 1) seeds the
# loops' durations. Every loop creates its rooms from 127.0.0.1, so the per-address room quotas
# are off (as in capacity.sh): this run is about what reclaiming costs, not about the quotas.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
duration=${1:-600}
clients=${2:-64}
out=${OUT:-/tmp/uc-churn}
seed=${SEED:-1}
bin=${UNDERCOOKED_BIN:-}
if [ -z "$bin" ]; then
  source .ci/lib.sh
  cargo build --locked --quiet --release --no-default-features --features server --bin undercooked
  bin="$CARGO_TARGET_DIR/release/undercooked"
fi
rm -rf "$out" && mkdir -p "$out"
echo "churn: $clients clients for $duration s, seed $seed, $bin"

"$bin" --headless --port 0 --web-port 0 --bind 127.0.0.1 --data-dir "$out/data" \
  --max-rooms 64 --empty-room-secs 5 --rooms-per-address 0 --rooms-per-minute 0 \
  >"$out/server.out" 2>"$out/server.err" &
server=$!
loops=()
cleanup() {
  for p in "${loops[@]}"; do kill "$p" 2>/dev/null || true; done
  kill "$server" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 100); do grep -q "web http" "$out/server.out" 2>/dev/null && break; sleep 0.1; done
web=$(grep -o 'web http://[0-9.:]*' "$out/server.out" | sed 's|web http://||')
end=$(( $(date +%s) + duration ))

# One loop: connect four clients in a fresh room, play, drop, repeat until the end.
churn_loop() {
  local n=$1 ws=() rounds=0
  [ $((n % 2)) -eq 1 ] && ws=(--ws)
  RANDOM=$((seed * 1000 + n))
  while [ "$(date +%s)" -lt "$end" ]; do
    local secs=$((4 + RANDOM % 17))
    "$bin" join "$web" --create --headless --clients 4 --inputs random --seconds "$secs" \
      "${ws[@]}" >>"$out/loop$n.log" 2>&1 || echo "join exited $?" >>"$out/loop$n.log"
    rounds=$((rounds + 1))
  done
  echo "$rounds" >"$out/loop$n.rounds"
}
for n in $(seq 0 $((clients / 4 - 1))); do
  churn_loop "$n" &
  loops+=($!)
done

sample() {
  local rss threads fds
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$server/status")
  threads=$(awk '/^Threads/ {print $2}' "/proc/$server/status")
  fds=$(ls "/proc/$server/fd" | wc -l)
  printf '%s\t%s\t%s\t%s\n' "$(( $(date +%s) - end + duration ))" "$rss" "$threads" "$fds"
}
printf 't_s\trss_kb\tthreads\tfds\n' >"$out/samples.tsv"
while [ "$(date +%s)" -lt "$end" ]; do
  sample >>"$out/samples.tsv"
  sleep 10
done
sample >>"$out/samples.tsv"
for p in "${loops[@]}"; do wait "$p" 2>/dev/null || true; done
loops=()

cat "$out/samples.tsv"
sessions=$(cat "$out"/loop*.rounds 2>/dev/null | awk '{s += $1} END {print s + 0}')
failed=$(cat "$out"/loop*.log 2>/dev/null | grep -c "join exited" || true)
echo "join processes: $sessions ($((sessions * 4)) connections), $failed exited non-zero"
# Flat: the last third's mean within 10% (+2) of the first third's.
awk -F'\t' 'NR > 1 { n++; for (c = 2; c <= 4; c++) v[c, n] = $c }
  END {
    third = int(n / 3); if (third < 1) third = 1; bad = 0
    split("rss_kb threads fds", name, " ")
    for (c = 2; c <= 4; c++) {
      a = 0; b = 0
      for (i = 1; i <= third; i++) a += v[c, i]
      for (i = n - third + 1; i <= n; i++) b += v[c, i]
      a /= third; b /= third
      flat = (b <= a * 1.10 + 2) ? "flat" : "GROWS"
      if (flat != "flat") bad = 1
      printf "%-8s first third %.0f, last third %.0f: %s\n", name[c - 1], a, b, flat
    }
    exit bad
  }' "$out/samples.tsv"
