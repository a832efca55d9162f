// web/check-goldens.mjs — replays every committed golden in the wasm32 build of the sim, under node.
//
// Usage: node web/check-goldens.mjs PKG_DIR [SCRIPT.ron ...] (from the repository root; no
// scripts: every goldens/scripts/*.ron and goldens/tandem/scripts/*.tandem.ron). PKG_DIR holds wasm-bindgen's `--target nodejs` output
// of web/golden-check. The wasm module has no file system, so this reads the script, its golden,
// its level and the recipe book and passes their text in. Prints one line per golden and
// "N passed, M failed"; exits 1 on any mismatch or error.
import { createRequire } from "node:module";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, resolve, basename } from "node:path";

const [pkgDir, ...given] = process.argv.slice(2);
if (!pkgDir) {
  console.error("usage: node web/check-goldens.mjs PKG_DIR [SCRIPT.ron ...]");
  process.exit(2);
}
const require = createRequire(import.meta.url);
const wasm = require(resolve(pkgDir, "undercooked_golden_check.js"));

const ronIn = (dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".ron"))
    .sort()
    .map((f) => join(dir, f));
// Every kitchen golden, then every Tandem golden (issue 21: the second mode's chain too).
const scripts = given.length ? given : [...ronIn("goldens/scripts"), ...ronIn("goldens/tandem/scripts")];
const isTandem = (path) => path.endsWith(".tandem.ron");

// The same lookup as `replay check` (level::files::find_level): a path to a file, else
// levels/<id>.ron. (find_level's last resort, any file whose id matches, is not needed by any
// committed script; a script that needs it fails here loudly rather than silently.)
function levelFile(ref) {
  if (existsSync(ref)) return ref;
  return join("levels", `${ref}.ron`);
}
// The same book as natively: $UNDERCOOKED_RECIPES, else assets/recipes.ron, else built in ("").
const recipesPath = process.env.UNDERCOOKED_RECIPES || "assets/recipes.ron";
const recipes = existsSync(recipesPath) ? readFileSync(recipesPath, "utf8") : "";

console.log(`wasm module: ${pkgDir} (compiled for ${wasm.target_arch()}), node ${process.version}`);
let passed = 0;
let failed = 0;
const t0 = performance.now();
for (const path of scripts) {
  const t = performance.now();
  let line;
  let ok = false;
  try {
    const script = readFileSync(path, "utf8");
    const name = (script.match(/name:\s*"([^"]+)"/) || [])[1] || basename(path, ".ron");
    let r;
    if (isTandem(path)) {
      const golden = readFileSync(join("goldens", "tandem", `${name}.golden.json`), "utf8");
      r = JSON.parse(wasm.check_tandem(script, golden));
    } else {
      const level = wasm.script_level(script);
      const golden = readFileSync(join("goldens", `${name}.golden.json`), "utf8");
      r = JSON.parse(wasm.check(script, golden, readFileSync(levelFile(level), "utf8"), recipes));
    }
    const ms = (performance.now() - t).toFixed(0);
    if (r.ok) {
      ok = true;
      line = `${path}: ok, ${r.ticks} ticks, final hash ${r.final_hash} (${ms} ms)`;
    } else if (r.error) {
      line = `${path}: ERROR ${r.error}`;
    } else {
      line = `${path}: MISMATCH at tick ${r.tick}: golden ${r.golden}, replayed ${r.replayed}`;
      for (const f of r.fields) line += `\n  ${f.field}: golden ${f.golden ?? "absent"}, replayed ${f.replayed ?? "absent"}`;
    }
  } catch (e) {
    line = `${path}: ERROR ${e && e.message ? e.message : e}`;
  }
  console.log(line);
  if (ok) passed++;
  else failed++;
}
console.log(`total ${((performance.now() - t0) / 1000).toFixed(2)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
