#!/usr/bin/env bash
# web/check-goldens.sh — builds the sim for wasm32 and replays every committed golden under node.
#
# Issue 10's "same rules, same bits": the hash chain of every goldens/scripts/*.ron, replayed by
# the wasm32 build, must equal the committed goldens/*.golden.json (which the native build
# produced). Needs node, the wasm32 target and wasm-bindgen-cli at Cargo.lock's wasm-bindgen
# version (.ci/lib.sh's uc_need_wasm_bindgen installs it). Extra arguments are script paths.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source .ci/lib.sh

# Its own persistent target dir: a release wasm32 build of Bevy shares nothing with the native
# debug builds, and keeping it apart means a cold native cache never costs this one its build.
export CARGO_TARGET_DIR="${UC_WASM_TARGET_DIR:-$HOME/.cache/undercooked-wasm-target}"
# Release: the debug wasm of a Bevy app replays ~10x slower and the check runs on every CI.
cargo build --locked --release --target wasm32-unknown-unknown -p undercooked-golden-check
want=$(uc_wasm_bindgen_version)
have=$(uc_wasm_bindgen_installed)
if [ "$have" != "$want" ]; then
  echo "wasm-bindgen-cli is ${have:-missing}, Cargo.lock has $want: run .ci/lib.sh's uc_need_wasm_bindgen" >&2
  exit 2
fi
pkg="$CARGO_TARGET_DIR/golden-check-pkg"
rm -rf "$pkg"
wasm-bindgen --target nodejs --out-dir "$pkg" \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/undercooked_golden_check.wasm"
echo "wasm: $(stat -c %s "$pkg/undercooked_golden_check_bg.wasm") bytes"
node web/check-goldens.mjs "$pkg" "$@"
