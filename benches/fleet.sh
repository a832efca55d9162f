#!/usr/bin/env bash
# benches/fleet.sh — a fleet on one machine (docs/PERFORMANCE.md, "Fleet on one machine";
# docs/HOSTING.md, "A fleet on one machine"): a real redis-server, a directory on it, N game
# servers announcing to it, ROOMS rooms of four headless bot clients placed through the
# directory's quick match, then one server drained (SIGTERM) and another killed (SIGKILL) while
# their rounds are live.
#
#   benches/fleet.sh [N=3] [ROOMS=12]
#
# Prints the rooms each server got, the directory's response times as its clients see them
# (p50/p99 of GET /api/servers and of GET /api/rooms/CODE, timed by curl), the rounds the drained
# server finished, the rounds lost (the killed server's), how long after each signal the
# directory stopped offering that server, and `replay check` of every bundle the other servers
# wrote. Exit 0 when every claim holds: every server got a room; every round live on the drained
# server at SIGTERM finished and was recorded, and it exited 0; every round on the untouched
# servers finished; no round was lost but the killed server's; the directory stopped offering
# both; every bundle checks. Exit 1 naming each claim that failed; 2 a setup step failed.
#
# Environment: UNDERCOOKED_BIN (default: a release server-only build), OUT (/tmp/uc-fleet),
# ROUND_SECS (20 + 2 × ROOMS: the tutorial's clock in this run, so a round ends within the bench),
# ANNOUNCE_SECS (1: the servers' heartbeat), TTL_SECS (15: the directory's default).
# A shell script around the real binary, like capacity.sh and churn.sh: all it does is start
# processes, signal them and read what they wrote, and a subcommand would only add Rust that
# orchestrates processes. Everything runs on 127.0.0.1. The whole fleet and its players share that one address, so the
# per-address limits (announces, lookups; rooms per address on the servers) are off: this run
# measures the fleet, not the limiter.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
servers=${1:-3}
rooms=${2:-12}
out=${OUT:-/tmp/uc-fleet}
# Placing a room takes 1–2.5 s (a quick match, then the server's next heartbeat; release ~1 s,
# debug on a busy box ~2.5 s): the first room's round must still be live when the last starts.
round_secs=${ROUND_SECS:-$((20 + 2 * rooms))}
announce_secs=${ANNOUNCE_SECS:-1}
ttl_secs=${TTL_SECS:-15}
bin=${UNDERCOOKED_BIN:-}
die() { echo "fleet: $*" >&2; exit 2; }
[ "$servers" -ge 3 ] || die "N must be at least 3: one drained, one killed, one untouched"
[ "$rooms" -ge "$servers" ] || die "ROOMS must be at least N: every server gets a room"
for tool in redis-server curl jq awk; do command -v "$tool" >/dev/null || die "needs $tool"; done
if [ -z "$bin" ]; then
  source .ci/lib.sh
  cargo build --locked --quiet --release --no-default-features --features server --bin undercooked
  bin="$CARGO_TARGET_DIR/release/undercooked"
fi
rm -rf "$out" && mkdir -p "$out/levels" "$out/joins"
t_start=$(date +%s)
echo "fleet: $servers servers, $rooms rooms of 4, rounds of $round_secs s, $bin"

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# Seconds (with fractions) since a `date +%s.%N` stamp.
since() { awk -v t0="$1" -v t1="$(date +%s.%N)" 'BEGIN {printf "%.3f", t1 - t0}'; }
# Waits (bounded) until the command succeeds.
wait_for() {
  local what=$1 tries=$2
  shift 2
  for _ in $(seq "$tries"); do "$@" && return 0; sleep 0.1; done
  die "gave up waiting: $what"
}

# The tutorial with a short clock. No index.ron: a folder without one serves every valid level
# in it (docs/LEVELS.md, "What runs"), so the edited file needs no publishing.
grep -q 'time_limit: 180.0' levels/tutorial.ron || die "levels/tutorial.ron's time_limit moved"
sed "s/time_limit: 180.0/time_limit: ${round_secs}.0/" levels/tutorial.ron >"$out/levels/tutorial.ron"

# Redis on a random free loopback port (another try on another port if that one was taken).
mkdir -p "$out/redis"
redis_up=""
for _ in 1 2 3 4 5; do
  redis_port=$((20000 + RANDOM % 20000))
  redis-server --bind 127.0.0.1 --port "$redis_port" --save "" --dir "$out/redis" \
    >"$out/redis/redis.log" 2>&1 &
  redis_pid=$!
  for _ in $(seq 50); do
    kill -0 "$redis_pid" 2>/dev/null || break
    if bash -c "exec 2>/dev/null 3<>/dev/tcp/127.0.0.1/$redis_port && printf 'PING\r\n' >&3 && head -c5 <&3 | grep -q PONG"; then
      redis_up=1
      break
    fi
    sleep 0.1
  done
  [ -n "$redis_up" ] && break
  kill "$redis_pid" 2>/dev/null || true
done
[ -n "$redis_up" ] || die "redis-server did not start (redis/redis.log)"
pids+=("$redis_pid")

"$bin" directory --bind 127.0.0.1 --web-port 0 --redis "redis://127.0.0.1:$redis_port/0" \
  --ttl-secs "$ttl_secs" --announces-per-minute 0 --lookups-per-minute 0 \
  --unknown-lookups-per-minute 0 --quick-matches-per-minute 0 \
  >"$out/directory.out" 2>"$out/directory.err" &
pids+=($!)
wait_for "the directory's banner" 100 grep -q "http://" "$out/directory.out"
dir=$(grep -o 'http://[0-9.:]*' "$out/directory.out" | head -n 1)

# curl's own timing of one directory request, in ms, appended to timings.tsv under KIND; the
# body goes to stdout.
timed_get() {
  local kind=$1 path=$2 body
  body=$(mktemp)
  curl -s -o "$body" -w "$kind\t%{time_total}\n" --max-time 5 "$dir$path" |
    awk -F'\t' '{printf "%s\t%.3f\n", $1, $2 * 1000}' >>"$out/timings.tsv" || true
  cat "$body"
  rm -f "$body"
}
listing() { timed_get servers /api/servers; }

declare -A server_pid
for i in $(seq "$servers"); do
  mkdir -p "$out/s$i"
  "$bin" --headless --port 0 --web-port 0 --bind 127.0.0.1 --levels "$out/levels" \
    --data-dir "$out/s$i/data" --announce "$dir" --name "fleet$i" --region loopback \
    --announce-secs "$announce_secs" --drain-seconds $((2 * round_secs + 30)) \
    --rooms-per-address 0 --rooms-per-minute 0 \
    >"$out/s$i/server.out" 2>"$out/s$i/server.err" &
  server_pid[$i]=$!
  pids+=($!)
done
wait_for "every server listed" 300 bash -c "[ \"\$(curl -s $dir/api/servers | jq '.servers | length')\" -eq $servers ]"

# Placement: one quick match at a time, the next once the last one's four seats are taken and
# the directory lists its room (a quick seat joins a public lobby with a free seat on the
# server it picked: before its three friends join, a new room has three). Quick match makes a room on the least loaded server it sees in the directory's
# list, which a server's next heartbeat updates; players arriving faster than that would all
# see the same list and the same least loaded server.
client_secs=$((round_secs + 8)) # countdown 3 s + round + settle 1 s, leaving in Results (5 s)
# Each join process drives its four connections from one thread; --frame-ms 20 (a step at
# least every tick) keeps 4×ROOMS bot clients affordable on two cores (capacity.sh uses 50).
listed_rooms() { listing | jq '[.servers[].rooms] | add // 0'; }
t_place=$(date +%s.%N) joins=()
for r in $(seq "$rooms"); do
  "$bin" join --directory "$dir" --quick --clients 4 --headless --inputs bot \
    --seconds "$client_secs" --frame-ms 20 --name "P$r" --stats \
    >"$out/joins/$r.out" 2>"$out/joins/$r.err" &
  pids+=($!) joins+=($!)
  # Its four seats taken and connected (`joined …`), then its room in the directory's list.
  for _ in $(seq 300); do grep -q '^joined' "$out/joins/$r.err" 2>/dev/null && break; sleep 0.05; done
  for _ in $(seq 300); do [ "$(listed_rooms)" -ge "$r" ] && break; sleep 0.05; done
  [ "$(listed_rooms)" -ge "$r" ] || die "room $r never listed (joins/$r.err: $(tail -n 2 "$out/joins/$r.err"))"
done
place_secs=$(since "$t_place")

# room code -> server, from each join's own account (`room: CODE`, `… on fleetK (…)`).
declare -A room_server
for r in $(seq "$rooms"); do
  code=$(sed -n 's/^room: //p' "$out/joins/$r.out" | head -n 1)
  name=$(grep -o 'on fleet[0-9]*' "$out/joins/$r.err" | head -n 1 | sed 's/on //')
  [ -n "$code" ] && [ -n "$name" ] || die "join $r did not say its room and server"
  room_server["$name/$code"]=$r
  timed_get lookup "/api/rooms/$code" >/dev/null
done
rooms_on() { printf '%s\n' "${!room_server[@]}" | grep -c "^fleet$1/" || true; }

# The drained server is the one with most rooms, the killed one the next (both hold rounds).
mapfile -t by_load < <(for i in $(seq "$servers"); do echo "$(rooms_on "$i") $i"; done | sort -k1,1nr -k2,2n | awk '{print $2}')
drained=${by_load[0]} killed=${by_load[1]}

# Signal once every room's round is live (the directory lists each room's phase).
in_round() { listing | jq '[.servers[].public_rooms[] | select(.phase == "Round")] | length'; }
for _ in $(seq 600); do [ "$(in_round)" -ge "$rooms" ] && break; sleep 0.1; done
live=$(in_round)
[ "$live" -ge "$rooms" ] || die "only $live of $rooms rounds live: raise ROUND_SECS (placement took ${place_secs}s)"

t_sig=$(date +%s.%N)
kill -TERM "${server_pid[$drained]}"
# (The shell's own "Killed" notice goes with the group's stderr.)
{ kill -KILL "${server_pid[$killed]}" && wait "${server_pid[$killed]}"; } 2>/dev/null || true
gone_drained="" gone_killed=""
for _ in $(seq $(((ttl_secs + 20) * 10))); do
  names=$(listing | jq -r '.servers[].name' 2>/dev/null || true)
  now=$(since "$t_sig")
  # A failed request says nothing: the untouched servers are always listed.
  [ -n "$names" ] || { sleep 0.1; continue; }
  [ -z "$gone_drained" ] && ! grep -qx "fleet$drained" <<<"$names" && gone_drained=$now
  [ -z "$gone_killed" ] && ! grep -qx "fleet$killed" <<<"$names" && gone_killed=$now
  [ -n "$gone_drained" ] && [ -n "$gone_killed" ] && break
  sleep 0.1
done

# The drained server exits once its rounds are recorded; the clients leave after theirs.
drained_rc=0
wait "${server_pid[$drained]}" || drained_rc=$?
for p in "${joins[@]}"; do wait "$p" || true; done
for i in $(seq "$servers"); do
  [ "$i" = "$drained" ] || [ "$i" = "$killed" ] && continue
  kill -TERM "${server_pid[$i]}" && wait "${server_pid[$i]}" || true
done

# Every room's first round: finished (a results line, reason finished) or lost. A drained round
# counts only if it was in play across the SIGTERM (started before it, ended after it).
failed=()
sig_ms=$(awk -v t="$t_sig" 'BEGIN {printf "%.0f", t * 1000}')
finished_on() { jq -r 'select(.reason == "finished") | .room' "$out/s$1/data/results.jsonl" 2>/dev/null || true; }
lost=0 lost_elsewhere=0 finished_drained=0 across_sigterm=0 drain_tail_ms=0
for key in "${!room_server[@]}"; do
  i=${key%%/*} i=${i#fleet} code=${key#*/}
  if finished_on "$i" | grep -qx "$code"; then
    [ "$i" = "$drained" ] || continue
    finished_drained=$((finished_drained + 1))
    read -r began ended < <(jq -r --arg c "$code" 'select(.room == $c and .reason == "finished") |
      "\(.started_at_ms) \(.ended_at_ms)"' "$out/s$i/data/results.jsonl" | head -n 1)
    if [ "$began" -lt "$sig_ms" ] && [ "$ended" -gt "$sig_ms" ]; then
      across_sigterm=$((across_sigterm + 1))
      [ $((ended - sig_ms)) -gt "$drain_tail_ms" ] && drain_tail_ms=$((ended - sig_ms))
    fi
  else
    lost=$((lost + 1))
    [ "$i" = "$killed" ] || { lost_elsewhere=$((lost_elsewhere + 1)); echo "lost: room $code on fleet$i"; }
  fi
done

checked=0 check_failed=0
for i in $(seq "$servers"); do
  [ "$i" = "$killed" ] && continue
  for b in "$out/s$i/data/bundles/"*.ron; do
    [ -e "$b" ] || continue
    checked=$((checked + 1))
    if ! "$bin" replay check "$b" >>"$out/replay-check.log" 2>&1; then
      check_failed=$((check_failed + 1))
      echo "replay check failed: $b"
    fi
  done
done

pct() { sort -n | awk -v p="$1" '{v[NR] = $1} END {if (NR) {i = int(NR * p / 100 + 0.999); if (i < 1) i = 1; printf "%.1f", v[i]} else printf "-"}'; }
timing() { awk -F'\t' -v k="$1" '$1 == k {print $2}' "$out/timings.tsv"; }
secs() { if [ -n "$1" ]; then printf '%.1f s' "$1"; else echo never; fi; }
held_drained=$(rooms_on "$drained") held_killed=$(rooms_on "$killed")
{
  echo "fleet: $servers servers, $rooms rooms of 4 bot clients, rounds of $round_secs s, heartbeat $announce_secs s, ttl $ttl_secs s"
  printf 'rooms per server (placed by quick match in %.1f s):' "$place_secs"
  for i in $(seq "$servers"); do printf ' fleet%s=%s' "$i" "$(rooms_on "$i")"; done
  echo
  echo "directory, as curl sees it: GET /api/servers p50 $(timing servers | pct 50) ms, p99 $(timing servers | pct 99) ms ($(timing servers | wc -l) requests);" \
    "GET /api/rooms/CODE p50 $(timing lookup | pct 50) ms, p99 $(timing lookup | pct 99) ms ($(timing lookup | wc -l))"
  echo "drained fleet$drained (SIGTERM mid-round): $finished_drained of its $held_drained rounds finished and recorded" \
    "($across_sigterm in play across the signal, the last ended $(secs "$((drain_tail_ms / 1000)).$(printf '%03d' $((drain_tail_ms % 1000)))") after it), exit $drained_rc"
  echo "killed fleet$killed (SIGKILL mid-round): $lost rounds lost, $((lost - lost_elsewhere)) of them its own (it held $held_killed), $lost_elsewhere elsewhere"
  echo "directory stopped offering: fleet$drained $(secs "$gone_drained") after SIGTERM, fleet$killed $(secs "$gone_killed") after SIGKILL"
  echo "replay check: $((checked - check_failed)) of $checked bundles of the other servers match"
  echo "wall time: $(( $(date +%s) - ${t_start%.*} )) s"
} | tee "$out/summary.txt"

[ "$held_drained" -ge 1 ] && [ "$held_killed" -ge 1 ] || failed+=("the drained and killed servers hold rounds")
for i in $(seq "$servers"); do [ "$(rooms_on "$i")" -ge 1 ] || failed+=("fleet$i got a room"); done
[ "$drained_rc" -eq 0 ] || failed+=("the drained server exits 0")
[ "$finished_drained" -eq "$held_drained" ] || failed+=("every drained round finished")
[ "$across_sigterm" -eq "$held_drained" ] || failed+=("every drained round was in play at SIGTERM")
[ "$lost" -eq "$held_killed" ] && [ "$lost_elsewhere" -eq 0 ] || failed+=("only the killed server's rounds lost")
[ -n "$gone_drained" ] && [ -n "$gone_killed" ] || failed+=("the directory stopped offering both")
[ "$check_failed" -eq 0 ] && [ "$checked" -ge $((rooms - held_killed)) ] || failed+=("every survivor bundle checks")
if [ "${#failed[@]}" -ne 0 ]; then
  printf 'FAILED: %s\n' "${failed[@]}" | tee -a "$out/summary.txt"
  exit 1
fi
echo "all claims hold" | tee -a "$out/summary.txt"
