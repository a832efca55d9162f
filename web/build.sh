#!/usr/bin/env bash
# web/build.sh — builds the browser client into web/dist/ (index.html, JS glue, .wasm, assets).
#
# The headless server serves that folder at http://HOST:WEB_PORT/ (`--web-root`, default
# web/dist); `/?room=CODE&name=NAME` opens straight into that room (src/client/web.rs). Needs
# the wasm32 target and wasm-bindgen-cli at Cargo.lock's wasm-bindgen version (.ci/lib.sh's
# uc_need_wasm_bindgen installs both); runs wasm-opt when a good one is at hand (uc_wasm_opt:
# binaryen >= 132 in PATH, else npm's `binaryen` package, fetched once into ~/.cache), and
# brotli and gzip for the precompressed X.br and X.gz it writes beside the .wasm, JS and page.
#
# The profile is `wasm-release` (Cargo.toml: opt-level z, fat LTO, one codegen unit, panic
# abort): what players download. A cold build takes tens of minutes on 2 cores; CARGO_TARGET_DIR
# keeps it between runs.
#
#   web/build.sh [--dev]
#
# `--dev` builds the same client in the debug profile, without wasm-opt: a complete, playable
# web/dist (~10x larger and slower) in a fraction of the build time. .ci/run uses it to prove on
# every run that the browser client compiles, links and binds; the size is measured on the
# release build (docs/PERFORMANCE.md, "Browser client").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source .ci/lib.sh

profile=wasm-release
dir=wasm-release
if [ "${1:-}" = "--dev" ]; then
  profile=dev
  dir=debug
fi
out=web/dist

uc_need_target wasm32-unknown-unknown
uc_need_wasm_bindgen
uc_need_apt "${UC_WEB_PACKAGES[@]}"
uc_need_rust
if [ "$profile" != dev ]; then
  # Panic locations name their source files: Cargo's registry path (~60 bytes) led ~1,500 of
  # them. Remapped, the module keeps "bevy_ecs-0.19.1/src/..." and drops ~90 KB. v0 symbol
  # names carry generic arguments, so web/size.py can say which system or type a function
  # serves (the names never reach players: wasm-opt drops the name section).
  flags="-C symbol-mangling-version=v0"
  for src in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
    flags+=" --remap-path-prefix=$src="
  done
  export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }$flags"
fi
cargo build --locked --profile "$profile" --target wasm32-unknown-unknown \
  --no-default-features --features client --bin undercooked
rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name undercooked \
  "$CARGO_TARGET_DIR/wasm32-unknown-unknown/$dir/undercooked.wasm"
if [ "$profile" = dev ]; then
  uc_log "debug build: wasm-opt skipped"
elif opt=$(uc_wasm_opt) && [ -n "$opt" ]; then
  # -Oz: the download is the page's load time. The features are the ones rustc's wasm32
  # target enables by default; wasm-opt must accept them to read the module at all.
  if "$opt" -Oz --enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    --enable-call-indirect-overlong \
    -o "$out/undercooked_bg.opt.wasm" "$out/undercooked_bg.wasm"; then
    mv "$out/undercooked_bg.opt.wasm" "$out/undercooked_bg.wasm"
  else
    rm -f "$out/undercooked_bg.opt.wasm"
    uc_log "wasm-opt ($("$opt" --version)) failed: keeping the module as wasm-bindgen wrote it"
  fi
else
  uc_log "no usable wasm-opt (binaryen >= $UC_BINARYEN_VERSION, or npm to fetch it): the .wasm is not size-optimised"
fi
cp web/index.html "$out/"
cp -r assets "$out/assets"
# Precompressed copies beside the files a first visit downloads: the web port sends X.br or
# X.gz by the client's Accept-Encoding, when not older than X (src/net/server/web/files.rs). Debian's
# `brotli` and `gzip` are the formats' reference encoders, at their smallest settings: nothing
# to build, nothing hand-written, and the server only reads the files. `gzip -n` keeps the name
# and time out of the header, so a build compresses to the same bytes every time. Assets (PNG,
# OGG) are compressed formats already. brotli -q 11 runs at ~0.35 MB/s here: ~40 s for the
# release module, but ~7 minutes for the ~10x larger debug one, so `--dev` (which proves on
# every CI run that the path works, not what it weighs) takes brotli -q 5 and gzip -6 (~80x
# and ~10x faster).
if [ "$profile" = dev ]; then
  brotli_q=5 gzip_level=6
else
  brotli_q=11 gzip_level=9
fi
for f in "$out/undercooked_bg.wasm" "$out/undercooked.js" "$out/index.html"; do
  brotli -q "$brotli_q" -c "$f" >"$f.br"
  gzip "-$gzip_level" -n -c "$f" >"$f.gz"
done
wasm="$out/undercooked_bg.wasm"
echo "web/dist ($profile): undercooked_bg.wasm $(stat -c %s "$wasm") bytes raw," \
  "$(stat -c %s "$wasm.gz") gzip -$gzip_level, $(stat -c %s "$wasm.br") brotli -q $brotli_q"
