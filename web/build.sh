#!/usr/bin/env bash
# web/build.sh — builds the browser client into web/dist/ (index.html, JS glue, .wasm, assets).
#
# The headless server serves that folder at http://HOST:WEB_PORT/ (`--web-root`, default
# web/dist). Needs the wasm32 target and wasm-bindgen-cli at Cargo.lock's wasm-bindgen version
# (.ci/lib.sh's uc_need_wasm_bindgen installs both); runs wasm-opt (apt: binaryen) when present.
# The browser entry point of the client belongs to the client branch: until it lands, the
# module this builds links but has nothing that starts the game in a page.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source .ci/lib.sh
uc_need_target wasm32-unknown-unknown
uc_need_wasm_bindgen

cargo build --locked --release --target wasm32-unknown-unknown --no-default-features --features client \
  --bin undercooked
out=web/dist
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name undercooked \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/undercooked.wasm"
if command -v wasm-opt >/dev/null 2>&1; then
  # -Oz: the download is the browser's load time; Bevy's wasm shrinks ~20 % with it.
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
    -o "$out/undercooked_bg.opt.wasm" "$out/undercooked_bg.wasm"
  mv "$out/undercooked_bg.opt.wasm" "$out/undercooked_bg.wasm"
else
  echo "wasm-opt not found (apt-get install binaryen): the .wasm is not size-optimised" >&2
fi
cp web/index.html "$out/"
cp -r assets "$out/assets"
raw=$(stat -c %s "$out/undercooked_bg.wasm")
gz=$(gzip -9 -c "$out/undercooked_bg.wasm" | wc -c)
echo "web/dist: undercooked_bg.wasm $raw bytes raw, $gz bytes gzip -9"
