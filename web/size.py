#!/usr/bin/env python3
"""web/size.py — where the browser client's bytes go, by crate.

Reads the module cargo writes (before wasm-bindgen and wasm-opt, which drop the name section):

    web/size.py [$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm-release/undercooked.wasm] [-n 40]

and prints its sections, then the code section summed two ways over each function's symbol:
"defined in" (the crate whose code it is: `core` for `Option::map`) and "made for" (the first
crate named in it that is not Rust's or Bevy's ECS plumbing: a system function of bevy_pbr's
counts for bevy_pbr). web/build.sh builds with v0 symbol mangling so that generic arguments, and
with them "made for", are in the names. Sizes are before wasm-opt, which shrinks code ~15 %.
"""
import collections
import os
import re
import sys

# Crates whose generic code is instantiated for everyone: "made for" looks past them.
PLUMBING = {
    "core", "alloc", "std", "hashbrown", "bevy_ecs", "bevy_app", "bevy_platform", "bevy_utils",
    "bevy_tasks", "bevy_reflect", "bevy_ptr", "smallvec", "serde", "serde_core", "erased_serde",
    "bevy_log", "tracing", "tracing_core", "downcast_rs", "variadics_please", "indexmap",
    "fixedbitset", "thiserror", "log", "concurrent_queue", "async_executor", "event_listener",
    "bevy_state", "disqualified",
}
# v0 mangling: a crate root is `C`, an optional disambiguator `s<base62>_`, then `<len><name>`.
CRATE_ROOT = re.compile(r"C(?:s[0-9A-Za-z]*_)?(\d+)")


def leb(data, i):
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def sections(data):
    """(id or custom name, start, end) for each section (a custom one's body after its name)."""
    i, out = 8, []
    while i < len(data):
        sid = data[i]
        size, i = leb(data, i + 1)
        if sid == 0:
            nlen, j = leb(data, i)
            out.append(("custom:" + data[j:j + nlen].decode(errors="replace"), j + nlen, i + size))
        else:
            out.append((sid, i, i + size))
        i += size
    return out


def imported_functions(data, start):
    count, i = leb(data, start)
    funcs = 0
    for _ in range(count):
        for _ in range(2):  # module and field names
            n, i = leb(data, i)
            i += n
        kind = data[i]
        i += 1
        if kind == 0:  # function: type index
            _, i = leb(data, i)
            funcs += 1
        elif kind == 1:  # table: reftype, limits
            flags = data[i + 1]
            _, i = leb(data, i + 2)
            if flags & 1:
                _, i = leb(data, i)
        elif kind == 2:  # memory: limits
            flags = data[i]
            _, i = leb(data, i + 1)
            if flags & 1:
                _, i = leb(data, i)
        elif kind == 3:  # global: valtype, mutability
            i += 2
        else:
            raise ValueError(f"import kind {kind} not understood")
    return funcs


def function_names(data, start, end):
    names, i = {}, start
    while i < end:
        sub = data[i]
        size, i = leb(data, i + 1)
        stop = i + size
        if sub == 1:
            count, i = leb(data, i)
            for _ in range(count):
                index, i = leb(data, i)
                n, i = leb(data, i)
                names[index] = data[i:i + n].decode(errors="replace")
                i += n
        i = stop
    return names


def crates_named(symbol):
    """Crate names in a symbol, in order (v0 crate roots; legacy paths as a fallback)."""
    found = []
    if symbol.startswith("_R"):
        for m in CRATE_ROOT.finditer(symbol):
            n, at = int(m.group(1)), m.end()
            if symbol[at:at + 1] == "_":  # a name that starts with a digit or `_` gets a `_`
                at += 1
            name = symbol[at:at + n]
            if re.fullmatch(r"[a-z_][a-z0-9_]*", name):
                found.append(name)
    elif symbol.startswith("_ZN"):
        # Legacy: length-prefixed segments; an impl's segment spells paths with `..`.
        i = 3
        while i < len(symbol) and symbol[i].isdigit():
            m = re.match(r"\d+", symbol[i:])
            n = int(m.group())
            segment = symbol[i + len(m.group()):i + len(m.group()) + n]
            i += len(m.group()) + n
            if segment.startswith("_$"):
                found += re.findall(r"([a-z_][a-z0-9_]*)\.\.", segment)
            elif not found:
                found.append(segment)
    return found or [symbol[:24] or "?"]


def main():
    args = sys.argv[1:]
    top = 40
    if "-n" in args:
        at = args.index("-n")
        top = int(args[at + 1])
        del args[at:at + 2]
    target = os.environ.get("CARGO_TARGET_DIR", "target")
    path = args[0] if args else f"{target}/wasm32-unknown-unknown/wasm-release/undercooked.wasm"
    data = open(path, "rb").read()
    if data[:4] != b"\0asm":
        sys.exit(f"{path}: not a wasm module")
    secs = sections(data)
    print(f"{path}: {len(data):,} bytes")
    for sid, start, end in secs:
        print(f"  section {sid!s:<28} {end - start:>12,}")
    by_id = {sid: (start, end) for sid, start, end in secs}
    if "custom:name" not in by_id:
        sys.exit("no name section: give the module cargo wrote, before wasm-bindgen/wasm-opt")
    imports = imported_functions(data, by_id[2][0]) if 2 in by_id else 0
    start, _ = by_id[10]
    count, i = leb(data, start)
    names = function_names(data, *by_id["custom:name"])
    home, made_for = collections.Counter(), collections.Counter()
    total = 0
    for k in range(count):
        size, i = leb(data, i)
        i += size
        total += size
        crates = crates_named(names.get(imports + k, "?"))
        home[crates[0]] += size
        made_for[next((c for c in crates if c not in PLUMBING), crates[0])] += size
    print(f"\ncode: {count:,} functions, {total:,} bytes")
    for title, counter in (("defined in", home), ("made for", made_for)):
        print(f"\n{title}:")
        for crate, size in counter.most_common(top):
            print(f"  {size:>11,} {100 * size / total:5.1f}%  {crate}")


if __name__ == "__main__":
    main()
