#!/usr/bin/env bash
# docs/screenshots/take.sh — retakes the README's screenshots with the game itself
# (`undercooked play --screenshot`), under Xvfb and Mesa's software renderer, so they can be
# taken again after any change to the look.
#
#   docs/screenshots/take.sh                 # every shot
#   docs/screenshots/take.sh title round-end # only these
#
# UC_BIN picks the binary (default: the `play` profile's, which `./play` and `./test` build,
# else the dev profile's, under target/ or $CARGO_TARGET_DIR; default features). The debug
# build is several times slower. Shots go to docs/screenshots/<name>.png; the save file
# is a fresh temporary one, so stars and settings are the defaults and yours are untouched.
# Everything the game shows is decided by the seeded sim and the planner bots, so a retake of
# an unchanged build shows the same kitchen at the same tick. Time: a debug build under Xvfb on
# a 2-core box took 2-6 minutes a shot (the round end, which plays the tutorial until the bots
# win, ~11), about an hour for them all.
set -euo pipefail

cd "$(dirname "$0")/../.."
out=docs/screenshots
target=${CARGO_TARGET_DIR:-target}
bin=${UC_BIN:-$target/play/undercooked}
[[ -n ${UC_BIN:-} || -x $bin ]] || bin=$target/debug/undercooked
if [[ ! -x $bin ]]; then
  echo "take.sh: no game binary at $bin (cargo build, or set UC_BIN)" >&2
  exit 2
fi
if ! command -v xvfb-run >/dev/null; then
  echo "take.sh: xvfb-run is missing (apt-get install xvfb xauth mesa-vulkan-drivers)" >&2
  exit 2
fi
save=$(mktemp -d)
trap 'rm -rf "$save"' EXIT

# One shot: its name, then the `play` arguments that set it up.
shoot() {
  local name=$1
  shift
  echo "take.sh: $name" >&2
  UNDERCOOKED_SAVE="$save/save.json" xvfb-run -a -s "-screen 0 1920x1080x24" \
    "$bin" play --size 1280x720 --screenshot "$out/$name.png" "$@" >"$save/$name.log" 2>&1 || {
    echo "take.sh: $name failed; its log:" >&2
    tail -20 "$save/$name.log" >&2
    return 1
  }
}

# name | what it shows | how
shots=(
  # The title over the live kitchen (planner bots cooking behind it).
  "title|--screen title --after-frames 90"
  # Busy kitchens on three levels: four planner bots each.
  "kitchen|--level tutorial --players 4 --autoplay bot --after-ticks 400"
  "kitchen-soup|--level soup_kitchen --players 4 --autoplay bot --after-ticks 700"
  "kitchen-burger|--level burger_bar --players 4 --autoplay bot --after-ticks 400"
  # The ticket rail filling up: random cooks serve nothing, so orders pile up and expire.
  "ticket-rail|--level corner_diner --players 2 --autoplay random --after-ticks 900"
  # A pot done and about to burn: the flashing '!' over it, smoke rising (tick 500).
  "burn-warning|--level soup_kitchen --players 4 --autoplay bot --after-ticks 500"
  # Round end: four bots win the tutorial; shot once the verdict is in and its stars have lit.
  "round-end|--level tutorial --players 4 --autoplay bot --at-round-end"
  # Settings: volume, every control's keys (the second button too), the accessibility options.
  "settings|--screen settings --after-frames 30"
  # Assist mode on: chosen on Level Select before the round, then a round with its badge
  # under the score (order timers x2, the round +50 %: a 4:30 clock on the corner diner).
  "assist-select|--screen level-select --assist-orders x2 --assist-round --after-frames 30"
  "assist|--level corner_diner --players 2 --autoplay bot --assist-orders x2 --assist-round --after-ticks 600"
  # The main menu over the live kitchen, and the Host screen (binds a LAN port).
  "menu|--screen menu --after-frames 90"
  "host|--screen host --after-frames 60"
  # Hazards: a grill fire (flames, smoke, the extinguisher stand), and a cart.
  "hazards|--level grill_fire --players 4 --autoplay bot --after-ticks 300"
  "hazards-cart|--level dim_sum_express --players 4 --autoplay bot --after-ticks 200"
  # A throw in flight (the golden `throw_caught`, held at tick 48): the onion on its arc over
  # the crates, its shadow on the floor, the catcher facing it.
  "throw|--level goldens/levels/moves_yard.ron --script goldens/scripts/throw_caught.ron --hold-at-tick 48 --after-ticks 48"
  # Moving Day (Tandem): two porters carrying the couch on seed 3, 10 s in, under the camera
  # that follows the couch (the same framing an online round gets).
  "tandem|--mode tandem --partner porter --autoplay bot --seed 3 --after-ticks 240"
)

want=("$@")
# The kitchen workshop: `undercooked edit` on a new 9x7 kitchen, built through the window's
# input by tests/fixtures/editor/marked.ron, one problem marked on its cell.
if ! ((${#want[@]})) || [[ " ${want[*]} " == *" editor "* ]]; then
  echo "take.sh: editor" >&2
  UNDERCOOKED_SAVE="$save/save.json" xvfb-run -a -s "-screen 0 1920x1080x24" \
    "$bin" edit "$save/salad_bar.ron" --new 9x7 --size 1280x720 \
    --script tests/fixtures/editor/marked.ron --screenshot "$out/editor.png" >"$save/editor.log" 2>&1 || {
    echo "take.sh: editor failed; its log:" >&2
    tail -20 "$save/editor.log" >&2
    exit 1
  }
fi
# The workshop's hazard tools: Burger Bar (a copy) with a hazard of every kind placed through
# the window's input by tests/fixtures/editor/hazards.ron.
if ! ((${#want[@]})) || [[ " ${want[*]} " == *" editor_hazards "* ]]; then
  echo "take.sh: editor_hazards" >&2
  cp levels/burger_bar.ron "$save/burger_bar.ron"
  UNDERCOOKED_SAVE="$save/save.json" xvfb-run -a -s "-screen 0 1920x1080x24" \
    "$bin" edit "$save/burger_bar.ron" --size 1280x720 \
    --script tests/fixtures/editor/hazards.ron --screenshot "$out/editor_hazards.png" \
    >"$save/editor_hazards.log" 2>&1 || {
    echo "take.sh: editor_hazards failed; its log:" >&2
    tail -20 "$save/editor_hazards.log" >&2
    exit 1
  }
fi
for entry in "${shots[@]}"; do
  name=${entry%%|*}
  args=${entry#*|}
  if ((${#want[@]})) && [[ " ${want[*]} " != *" $name "* ]]; then
    continue
  fi
  # shellcheck disable=SC2086 # the arguments are words on purpose
  shoot "$name" $args
done
