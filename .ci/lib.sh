# .ci/lib.sh — the setup shared by ./play, ./test and .ci/run: system packages, Rust, target dir.
#
# Sourced, never run. Every function installs only what is missing, so a warm machine pays
# a few dpkg/rustup queries and nothing else.

# One persistent target dir outside the clone: every distinct (profile, features, target) set
# rebuilds Bevy (minutes on 2 cores), so a fresh clone must find the old artifacts.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/undercooked-target}"

# What compiling the crate needs on Debian/Ubuntu, each for a reason found by building:
#   build-essential  cc for the C parts of -sys crates
#   pkg-config       how alsa-sys, libudev-sys and wayland-sys find their libraries
#   libasound2-dev   audio (cpal → alsa-sys)
#   libudev-dev      gamepads (gilrs → libudev-sys)
#   libwayland-dev   winit's Wayland backend links libwayland-client (wayland-sys without dlopen)
# X11 and xkbcommon are loaded with dlopen at run time, so their -dev packages are not needed.
UC_BUILD_PACKAGES=(build-essential pkg-config libasound2-dev libudev-dev libwayland-dev)
# What the test suite needs beyond a build: tests/client.rs runs the real game in a virtual X
# display (xvfb-run + xauth) and renders through Mesa's software Vulkan driver (lavapipe);
# tests/directory.rs starts a real redis-server (on a free loopback port, its own data dir) for
# `undercooked directory --redis`.
UC_TEST_PACKAGES=(xvfb xauth mesa-vulkan-drivers redis-server)
# What .ci/run needs beyond the tests: protobuf-compiler is the `protoc` the Agones SDK's build
# script (and tests/agones-sidecar's) compiles .proto files with (`--features server,agones`),
# libprotobuf-dev the well-known .proto files they import (google/protobuf/descriptor.proto);
# python3-yaml and python3-jsonschema run deploy/check.py, the manifests' validation.
UC_CI_PACKAGES=(protobuf-compiler libprotobuf-dev python3-yaml python3-jsonschema)
# What web/build.sh needs beyond Rust and wasm-bindgen: brotli and gzip write the .br and .gz
# copies of web/dist's big files that the web port sends to browsers that accept them.
UC_WEB_PACKAGES=(brotli gzip)
# What benches/fleet.sh (a CI step) needs beyond the test suite's redis-server: curl times the
# directory's answers, jq reads them and the results lines.
UC_BENCH_PACKAGES=(redis-server curl jq)
# rustup's installer, only when no Rust is installed yet.
UC_RUSTUP_PACKAGES=(curl ca-certificates)

uc_log() { printf '%s\n' "$*" >&2; }

# Runs a command as root: directly when we are root, through sudo otherwise.
uc_as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    uc_log "need root to run: $* (no sudo found)"
    return 1
  fi
}

# Installs the named Debian packages that are not installed yet; `apt-get update` only then.
uc_need_apt() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    uc_log "missing system packages (${missing[*]}) and no apt-get: install their equivalents by hand"
    return 1
  fi
  uc_log "installing system packages: ${missing[*]}"
  uc_as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    uc_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# Makes `cargo` available: an existing rustup/cargo install, or a fresh rustup one. The
# toolchain itself (version, rustfmt, clippy, wasm32 std) is named by rust-toolchain.toml.
uc_need_rust() {
  if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
  if ! command -v cargo >/dev/null 2>&1; then
    uc_need_apt "${UC_RUSTUP_PACKAGES[@]}" || return 1
    uc_log "installing Rust with rustup (https://rustup.rs)"
    # Downloaded first, not piped: a failed download must fail here, not run an empty script.
    local installer
    installer=$(mktemp) &&
      curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs -o "$installer" &&
      sh "$installer" -y --profile minimal --default-toolchain none || {
      rm -f "$installer"
      return 1
    }
    rm -f "$installer"
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
  # Installs the pinned toolchain (with the components and targets the file lists) when it
  # is missing; rustup proxies would do that on first use too, unless RUSTUP_AUTO_INSTALL=0.
  if command -v rustup >/dev/null 2>&1 && ! rustc --version >/dev/null 2>&1; then
    rustup toolchain install
  fi
}

# Adds a rustup component (rustfmt, clippy) to the pinned toolchain when it is missing.
uc_need_component() {
  local component=$1
  command -v rustup >/dev/null 2>&1 || return 0
  rustup component list --installed | grep -q "^$component" || rustup component add "$component"
}

# Adds a rustup target when it is missing (the browser build and the wasm32 golden check need its std).
uc_need_target() {
  local target=$1
  command -v rustup >/dev/null 2>&1 || return 0
  rustup target list --installed | grep -qx "$target" || rustup target add "$target"
}

# Everything a build of the crate (any feature set) needs. Written with `&&` rather than
# relying on `set -e`, which bash ignores inside a function called from an `||` list.
uc_need_build_deps() {
  uc_need_apt "${UC_BUILD_PACKAGES[@]}" && uc_need_rust
}

# Everything the test suite needs: the build, plus the virtual display for the client test.
uc_need_test_deps() {
  uc_need_build_deps && uc_need_apt "${UC_TEST_PACKAGES[@]}"
}

# What .ci/run needs beyond a build: the lint tools, the fleet bench's tools and the browser
# target.
uc_need_ci_tools() {
  uc_need_test_deps &&
    uc_need_apt "${UC_BENCH_PACKAGES[@]}" &&
    uc_need_apt "${UC_CI_PACKAGES[@]}" &&
    uc_need_component rustfmt &&
    uc_need_component clippy &&
    uc_need_target wasm32-unknown-unknown &&
    rustc --version && cargo --version
}

# The wasm-bindgen version Cargo.lock pins: wasm-bindgen-cli must match it exactly, or the
# bindings it writes refuse the module.
uc_wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/"/, "", $3); print $3; exit }' Cargo.lock
}

# The installed wasm-bindgen-cli's version, empty when there is none. `|| true`: with no
# wasm-bindgen the pipeline fails (pipefail), and under `set -e` that would end the caller
# silently with 127 instead of letting it install or name what is missing.
uc_wasm_bindgen_installed() {
  wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true
}

# wasm-bindgen-cli at Cargo.lock's version (web/check-goldens.sh, web/build.sh), from crates.io
# with cargo install when missing or another version; plus node, which runs the golden check.
uc_need_wasm_bindgen() {
  local want have
  want=$(uc_wasm_bindgen_version)
  [ -n "$want" ] || { uc_log "no wasm-bindgen in Cargo.lock"; return 1; }
  have=$(uc_wasm_bindgen_installed)
  if [ "$have" != "$want" ]; then
    uc_log "installing wasm-bindgen-cli $want (have: ${have:-none})"
    # Its own target dir: the install must not evict the game's artifacts, and is kept for reuse.
    CARGO_TARGET_DIR="$HOME/.cache/wasm-bindgen-cli-target" \
      cargo install wasm-bindgen-cli --version "$want" || return 1
  fi
  command -v node >/dev/null 2>&1 || uc_need_apt nodejs
}

# The wasm-opt web/build.sh runs, printed (nothing when there is none). Debian 12's binaryen
# (wasm-opt 108) writes modules Chromium refuses to compile (DESIGN.md, build notes), so only
# binaryen >= UC_BINARYEN_VERSION is used: the one in PATH if it is that new, else npm's
# `binaryen` package at that version, installed once into ~/.cache/undercooked-binaryen.
UC_BINARYEN_VERSION=132
uc_wasm_opt() {
  local v dir="$HOME/.cache/undercooked-binaryen"
  if command -v wasm-opt >/dev/null 2>&1; then
    v=$(wasm-opt --version | grep -o 'version [0-9]*' | grep -o '[0-9]*$' || true)
    if [ -n "$v" ] && [ "$v" -ge "$UC_BINARYEN_VERSION" ]; then
      echo wasm-opt
      return 0
    fi
  fi
  if [ ! -x "$dir/node_modules/.bin/wasm-opt" ] && command -v npm >/dev/null 2>&1; then
    uc_log "installing binaryen $UC_BINARYEN_VERSION from npm into $dir"
    npm install --silent --no-audit --no-fund --prefix "$dir" "binaryen@$UC_BINARYEN_VERSION.0.0" >&2 ||
      return 0
  fi
  if [ -x "$dir/node_modules/.bin/wasm-opt" ]; then
    echo "$dir/node_modules/.bin/wasm-opt"
  fi
  return 0
}

# The persistent build caches .ci/run keeps between runs (a fresh clone reuses them; the
# previous bullet explains why). They only grow: every Cargo.lock or toolchain change leaves
# the old artifacts beside the new, and on 2026-12-06 a CI machine's disk filled mid-build
# ("No space left on device" while linking test binaries) after the Agones dependencies landed.
UC_CACHE_DIRS=("$CARGO_TARGET_DIR" "$HOME/.cache/undercooked-wasm-target" "$HOME/.cache/undercooked-compare")
# Free space a whole .ci/run needs on the caches' disk when every cache is cold: its caches
# measured 19 GiB (target) + 1.5 GiB (wasm) after a full run on 2026-12-06 (docs/PERFORMANCE.md,
# "Build times"), and a build's temporary files come on top: 35 leaves room to spare.
UC_CI_MIN_FREE_GIB=${UC_CI_MIN_FREE_GIB:-35}

# GiB free on the disk that holds PATH (or its nearest existing parent).
uc_free_gib() {
  local path=$1
  while [ ! -e "$path" ]; do path=$(dirname "$path"); done
  df -P -BG "$path" | awk 'NR == 2 { sub("G", "", $4); print $4 }'
}

# One line: the caches' sizes and the space left, printed at the start and end of a CI run so a
# disk that fills says so before a compiler does.
uc_disk_report() {
  local dir sizes=()
  for dir in "${UC_CACHE_DIRS[@]}"; do
    [ -d "$dir" ] && sizes+=("$(du -sh "$dir" 2>/dev/null | cut -f1) in $dir")
  done
  echo "disk: $(uc_free_gib "$CARGO_TARGET_DIR") GiB free; caches: ${sizes[*]:-none}"
}

# Makes the room a CI run needs: while the caches' disk has less than UC_CI_MIN_FREE_GIB free,
# drops the cheapest-to-rebuild part first — incremental caches (a from-scratch compile of our
# own crate), then the other caches, then the main target dir (a cold run: slower, not failed).
uc_make_room() {
  local free dir
  free=$(uc_free_gib "$CARGO_TARGET_DIR")
  [ "$free" -ge "$UC_CI_MIN_FREE_GIB" ] && return 0
  uc_log "only $free GiB free (want $UC_CI_MIN_FREE_GIB): dropping incremental caches"
  for dir in "${UC_CACHE_DIRS[@]}"; do
    [ -d "$dir" ] && find "$dir" -maxdepth 3 -type d -name incremental -prune -exec rm -rf {} +
  done
  for dir in "${UC_CACHE_DIRS[@]:1}" "$CARGO_TARGET_DIR"; do
    free=$(uc_free_gib "$CARGO_TARGET_DIR")
    [ "$free" -ge "$UC_CI_MIN_FREE_GIB" ] && return 0
    [ -d "$dir" ] || continue
    uc_log "only $free GiB free: removing $dir (rebuilt cold)"
    rm -rf "$dir"
  done
  free=$(uc_free_gib "$CARGO_TARGET_DIR")
  [ "$free" -ge "$UC_CI_MIN_FREE_GIB" ] ||
    uc_log "only $free GiB free after removing every cache: the run may fill the disk"
}
