// web/e2e.mjs — the browser half of web/e2e.sh: a room link opened in headless Chromium joins
// a room, plays a round against a native watcher, holds movement keys, and is seen to move.
//
//   node web/e2e.mjs --bin UNDERCOOKED --web HOST:PORT --shot SCREENSHOT.png [--mode kitchen|tandem]
//        [--timeout SECS]
//
// --mode kitchen (the default):
// 1. POST /api/rooms as "Watcher": a room, its seat 0 held for the watcher (not yet connected,
//    so no round can start without the browser).
// 2. Chromium opens http://WEB/?room=CODE&name=Browser&players=2: couch co-op in the browser,
//    the page fetches seats 1 and 2 for its two players and connects them over one WebSocket.
//    Its console lines (src/client/web.rs) say when the first frame, the join and each lobby
//    phase happen.
// 3. Once the browser is in the lobby, `UNDERCOOKED join --headless --reconnect` takes seat 0
//    over UDP (idle inputs, auto-ready, `--stats` listing every cook it saw and how far each
//    got): both ready, the round starts.
// 4. In the round: a click on the canvas, then D and S held 3 s each; a screenshot, which
//    must not be blank (≥ 16 colours, no colour over 95 % of it).
// 5. The watcher's stats must show the browser's cook moved (and its own idle cook did not).
// 6. A second page, /?name=Maker (no room): its online menu's first line (Enter) makes a room
//    and seats the page in it.
//
// --mode tandem: the room is made for Tandem (`{"mode": "Tandem"}`), the page seats one player
// (`players=1`: seat 1, the couch's aft handle) and the watcher holds the fore handle sending
// nothing (a player seat without orders holds: no push). In the round D is held 3 s, then the
// screenshot as above. The watcher's `--stats` `tandem` object (src/net/client/tandem_watch.rs: what
// the server replicated, not what the page says) must show both handles held by the two
// players (no porter), the aft seat's order pushing and the fore seat's never, and the couch's
// centre at least 100 mm from where the watcher first saw it: the browser's orders reached the
// server and moved the couch. No menu page.
//
// --mode directory: Play online in the page. A directory and a second game server ("far
// kitchen", announcing to it and serving web/dist too) are started here; a public room is made
// on the far server and waited for in the directory's list. The page opens on WEB (which
// announces nowhere) with `?directory=`: its menu must list the far room (a screenshot of the
// menu), and its Quick match line must take the page to the far server's page, which joins that
// very room (`undercooked: joined room CODE`, its own console line, on the far origin).
// Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: fd 3 in,
// fd 4 out, NUL-separated JSON), so nothing but node and chromium is needed.
// Prints one JSON line of measurements; exit 0 when every step happened, 1 otherwise.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : dflt;
};
const chromiumPath = opt("--chromium", process.env.CHROMIUM || "chromium");
const timeoutSecs = Number(opt("--timeout", "240"));
const bin = opt("--bin");
const web = opt("--web");
const shotPath = opt("--shot");
const mode = opt("--mode", "kitchen");
const tandem = mode === "tandem";
// How long the watcher stays: the countdown, the keys, the screenshot and a traffic report.
const watchSecs = Number(opt("--watch-secs", "30"));
if (!bin || !web || !shotPath || args.length || !["kitchen", "tandem", "directory"].includes(mode)) {
  console.error("usage: node web/e2e.mjs --bin UNDERCOOKED --web HOST:PORT --shot OUT.png [--mode kitchen|tandem|directory] [--timeout SECS] [--chromium PATH]");
  process.exit(2);
}

const t0 = Date.now();
const secs = () => (Date.now() - t0) / 1000;
const log = (m) => console.error(`[e2e ${secs().toFixed(1)}s] ${m}`);
const fail = (m) => {
  log(`FAILED: ${m}`);
  finish(1);
};

const profile = mkdtempSync(join(tmpdir(), "uc-e2e-chromium-"));
const chrome = spawn(
  chromiumPath,
  [
    "--headless=new",
    "--no-sandbox",
    "--no-first-run",
    "--disable-gpu-sandbox",
    // WebGL2 without a GPU: ANGLE on SwiftShader, the software Vulkan/GL of Chromium.
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--ignore-gpu-blocklist",
    // Small enough for SwiftShader to draw a few frames a second on a small box.
    "--window-size=960,540",
    "--autoplay-policy=no-user-gesture-required",
    "--remote-debugging-pipe",
    `--user-data-dir=${profile}`,
    "about:blank",
  ],
  { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
);
let chromeErr = "";
chrome.stdio[2].on("data", (d) => {
  chromeErr = (chromeErr + d).slice(-4000);
});
chrome.on("exit", (code) => {
  if (!finished) fail(`chromium exited (${code}): ${chromeErr}`);
});

// The DevTools protocol over the pipe.
let nextId = 1;
const pending = new Map();
const listeners = [];
let inbuf = "";
chrome.stdio[4].on("data", (d) => {
  inbuf += d.toString("utf8");
  let end;
  while ((end = inbuf.indexOf("\0")) >= 0) {
    const msg = JSON.parse(inbuf.slice(0, end));
    inbuf = inbuf.slice(end + 1);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject, method } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(`${method}: ${msg.error.message}`));
      else resolve(msg.result);
    } else if (msg.method) {
      for (const l of listeners) l(msg);
    }
  }
});
function send(method, params = {}, sessionId) {
  const id = nextId++;
  const msg = { id, method, params };
  if (sessionId) msg.sessionId = sessionId;
  chrome.stdio[3].write(JSON.stringify(msg) + "\0");
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject, method }));
}

// The game's console lines, with when they came.
const lines = [];
const waiters = [];
listeners.push((msg) => {
  if (msg.method === "Runtime.consoleAPICalled") {
    const text = msg.params.args.map((a) => a.value ?? a.description ?? "").join(" ");
    if (text.startsWith("undercooked:")) {
      lines.push({ t: secs(), text, session: msg.sessionId });
      log(text);
    } else if (msg.params.type === "error") {
      log(`console error: ${text.slice(0, 300)}`);
    }
  } else if (msg.method === "Runtime.exceptionThrown") {
    const d = msg.params.exceptionDetails;
    const text = d.exception?.description || d.text;
    if (!String(text).includes("Using exceptions for control flow")) log(`exception: ${text}`);
  }
  for (const w of [...waiters]) w();
});
function waitLine(re, what, limitSecs = timeoutSecs, session = mainSession) {
  return new Promise((resolve) => {
    const check = () => {
      const hit = lines.find((l) => l.session === session && re.test(l.text));
      if (hit) {
        waiters.splice(waiters.indexOf(check), 1);
        resolve(hit);
      }
    };
    waiters.push(check);
    check();
    setTimeout(() => {
      if (waiters.includes(check)) fail(`no console line for ${what} within ${limitSecs}s`);
    }, limitSecs * 1000);
  });
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let mainSession;

// A PNG screenshot's pixels: how many distinct colours, and the share of the commonest one.
function pngStats(buf) {
  let off = 8;
  let width = 0, height = 0, bitDepth = 0, colorType = 0;
  const idat = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString("ascii", off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      bitDepth = data[8];
      colorType = data[9];
    } else if (type === "IDAT") idat.push(data);
    off += 12 + len;
  }
  const bpp = { 2: 3, 6: 4 }[colorType];
  if (bitDepth !== 8 || !bpp) throw new Error(`unexpected PNG format: depth ${bitDepth} type ${colorType}`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const px = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? px[y * stride + x - bpp] : 0;
      const b = y > 0 ? px[(y - 1) * stride + x] : 0;
      const c = x >= bpp && y > 0 ? px[(y - 1) * stride + x - bpp] : 0;
      let v = line[x];
      if (f === 1) v += a;
      else if (f === 2) v += b;
      else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) {
        const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      px[y * stride + x] = v & 255;
    }
  }
  const counts = new Map();
  for (let i = 0; i < px.length; i += bpp) {
    const k = (px[i] << 16) | (px[i + 1] << 8) | px[i + 2];
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  const top = Math.max(...counts.values());
  return { width, height, colours: counts.size, commonest_share: top / (width * height) };
}

let finished = false;
const result = { mode };
function finish(code) {
  if (finished) return;
  finished = true;
  console.log(JSON.stringify({ ok: code === 0, ...result }));
  // The profile folder goes once Chromium has exited (it writes there until then).
  const done = () => {
    try {
      rmSync(profile, { recursive: true, force: true });
    } catch (e) {
      log(`could not remove ${profile}: ${e}`);
    }
    process.exit(code);
  };
  if (chrome.exitCode !== null || chrome.signalCode !== null) return done();
  chrome.once("exit", done);
  chrome.kill("SIGKILL");
  setTimeout(done, 5000);
}

// Kitchen: the watcher saw the browser's cook get away from its spawn while its own stood.
function checkCooks(code, stats) {
  const cooks = stats.per_client?.[0]?.cooks ?? [];
  const mine = cooks.find((c) => c.seat === result.seat);
  result.watcher = { exit: code, down_bytes_per_s: stats.down_bytes_per_s, up_bytes_per_s: stats.up_bytes_per_s, cooks };
  if (code !== 0) throw new Error(`the watcher exited ${code}`);
  if (!mine) throw new Error(`the watcher never saw seat ${result.seat}: ${JSON.stringify(cooks)}`);
  if (!(mine.farthest_utiles > 0)) throw new Error(`the browser's cook did not move: ${JSON.stringify(mine)}`);
  // The watcher sends neutral inputs: its cook standing still shows the motion came from input.
  const idle = cooks.find((c) => c.seat !== result.seat);
  if (idle && idle.farthest_utiles !== 0) throw new Error(`the idle watcher's cook moved: ${JSON.stringify(idle)}`);
  log(`the watcher saw ${mine.name}'s cook (seat ${mine.seat}) get ${mine.farthest_utiles} µtiles from its spawn`);
}

// Tandem: in what the server replicated (the watcher's `--stats` `tandem`), the two players
// held the handles, only the browser's (aft) seat pushed, and the couch moved.
function checkTandem(code, stats, raw) {
  const t = stats.per_client?.[0]?.tandem;
  result.watcher = { exit: code, down_bytes_per_s: stats.down_bytes_per_s, up_bytes_per_s: stats.up_bytes_per_s };
  if (code !== 0) throw new Error(`the watcher exited ${code}`);
  if (!t) throw new Error(`the watcher saw no Tandem round: ${JSON.stringify(stats.per_client?.[0] ?? stats)}`);
  const [fore, aft] = t.seats;
  result.tandem = {
    // The seed is a u64: read from the text, since a JS number would round it.
    seed: raw.match(/"seed":(\d+)/)?.[1] ?? null,
    turn_ticks: t.turn_ticks, views: t.views, first_tick: t.first_tick, tick: t.tick,
    phase: t.phase, farthest_mm: t.farthest_mm, first_centre_mm: t.first_centre_mm,
    centre_mm: t.centre_mm, progress_permille: t.progress_permille, damage: t.damage,
    doorways: `${t.doorways_passed}/${t.doorways}`, score: t.score, seats: t.seats,
  };
  if (fore.porter || fore.name !== "Watcher") throw new Error(`the fore handle is not the watcher's: ${JSON.stringify(fore)}`);
  if (aft.porter || aft.seat !== result.seat) throw new Error(`the aft handle is not the browser's seat ${result.seat}: ${JSON.stringify(aft)}`);
  if (fore.pushing_views !== 0) throw new Error(`the idle watcher's seat pushed: ${JSON.stringify(fore)}`);
  if (!(aft.pushing_views > 0)) throw new Error(`the browser's order never pushed on the server: ${JSON.stringify(aft)}`);
  if (!(t.farthest_mm >= 100)) throw new Error(`the couch did not move (${t.farthest_mm} mm): ${JSON.stringify(t)}`);
  log(`the watcher saw the browser's seat push in ${aft.pushing_views} of ${t.views} views (last ${JSON.stringify(aft.last_push)}) and the couch go ${t.farthest_mm} mm: progress ${t.progress_permille}‰, damage ${t.damage}`);
}

// The menu: a page without a room opens on the online menu; Enter on its first line makes a
// room and seats this page in it.
async function makeRoomFromMenu(targetId) {
  await send("Target.closeTarget", { targetId });
  const menuTarget = (await send("Target.createTarget", { url: "about:blank" })).targetId;
  const menu = (await send("Target.attachToTarget", { targetId: menuTarget, flatten: true })).sessionId;
  const m = (method, p) => send(method, p, menu);
  await m("Runtime.enable");
  await m("Emulation.setFocusEmulationEnabled", { enabled: true });
  const menuAt = secs();
  await m("Page.navigate", { url: `http://${web}/?name=Maker` });
  await waitLine(/^undercooked: first frame/, "the menu page's first frame", timeoutSecs, menu);
  await sleep(1000);
  await m("Input.dispatchMouseEvent", { type: "mousePressed", x: 5, y: 5, button: "left", clickCount: 1 });
  await m("Input.dispatchMouseEvent", { type: "mouseReleased", x: 5, y: 5, button: "left", clickCount: 1 });
  const made = (async () => {
    for (;;) {
      await m("Input.dispatchKeyEvent", { type: "keyDown", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13 });
      await sleep(300);
      await m("Input.dispatchKeyEvent", { type: "keyUp", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13 });
      await sleep(2000);
      if (lines.some((l) => l.session === menu && /^undercooked: joined room/.test(l.text))) return;
    }
  })();
  const menuJoin = await waitLine(/^undercooked: joined room \S+ seat 0/, "the menu's new room", 60, menu);
  await made;
  result.menu_made_room_s = +(menuJoin.t - menuAt).toFixed(2);
}

// Starts `bin ARGS` and waits for the stderr/stdout line that names its address after `marker`.
const children = [];
function startProc(procArgs, marker) {
  const child = spawn(bin, procArgs, { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = "";
    const look = (d) => {
      seen += d;
      const at = seen.indexOf(marker);
      if (at >= 0) {
        const addr = seen.slice(at + marker.length).match(/^[0-9.:]+/)?.[0];
        if (addr) resolve(addr);
      }
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    child.on("exit", (code) => reject(new Error(`${procArgs[0]} exited ${code}: ${seen.slice(-2000)}`)));
  });
}
process.on("exit", () => children.forEach((c) => c.kill("SIGKILL")));

// A new tab (the main session) on `url`: its session, a sender for it, and when it was opened.
async function openPage(url) {
  const { targetId } = await send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
  mainSession = sessionId;
  const s = (m, p) => send(m, p, sessionId);
  await s("Runtime.enable");
  await s("Page.enable");
  await s("Emulation.setFocusEmulationEnabled", { enabled: true });
  const navAt = secs();
  await s("Page.navigate", { url });
  return { s, sessionId, targetId, navAt };
}

// A menu key: pressed, held a moment, released.
async function press(session, key, code, vk) {
  await send("Input.dispatchKeyEvent", { type: "keyDown", key, code, windowsVirtualKeyCode: vk }, session);
  await sleep(250);
  await send("Input.dispatchKeyEvent", { type: "keyUp", key, code, windowsVirtualKeyCode: vk }, session);
  await sleep(250);
}

// Play online in the page: the far server's public room is listed, and Quick match takes the
// page there and seats it in that room.
async function playOnline() {
  const data = mkdtempSync(join(tmpdir(), "uc-e2e-far-"));
  const dir = await startProc(["directory", "--bind", "127.0.0.1", "--web-port", "0"], "directory: http://");
  const far = await startProc(
    ["--headless", "--bind", "127.0.0.1", "--port", "0", "--web-port", "0", "--data-dir", data,
      "--web-root", "web/dist", "--announce", `http://${dir}`, "--name", "far-kitchen",
      "--announce-secs", "1"],
    "web http://",
  );
  log(`directory http://${dir}, far server http://${far}`);
  const made = await fetch(`http://${far}/api/rooms`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Host", public: true }),
  });
  const room = await made.json();
  if (made.status !== 201) throw new Error(`POST /api/rooms on the far server: ${made.status} ${JSON.stringify(room)}`);
  for (let i = 0; ; i++) {
    const list = await (await fetch(`http://${dir}/api/servers`)).json();
    if (list.servers?.some((s) => s.public_rooms.some((r) => r.code === room.code))) break;
    if (i > 100) throw new Error(`the directory never listed room ${room.code}`);
    await sleep(200);
  }
  result.far_room = room.code;
  const url = `http://${web}/?name=Quick&directory=http://${dir}`;
  result.url = url;
  const { s, sessionId, navAt } = await openPage(url);
  await waitLine(/^undercooked: first frame/, "the menu page's first frame");
  // The page surveys the directory at once: its line says when the far room is listed.
  await waitLine(/^undercooked: directory lists [1-9]/, "the directory's rooms on the menu", 60);
  await sleep(1000);
  const menuShot = await s("Page.captureScreenshot", { format: "png" });
  const menuPng = Buffer.from(menuShot.data, "base64");
  writeFileSync(shotPath, menuPng);
  const st = pngStats(menuPng);
  result.menu_screenshot = { path: shotPath, ...st };
  await s("Input.dispatchMouseEvent", { type: "mousePressed", x: 5, y: 5, button: "left", clickCount: 1 });
  await s("Input.dispatchMouseEvent", { type: "mouseReleased", x: 5, y: 5, button: "left", clickCount: 1 });
  // Quick match is the menu's third line: Down twice, then Enter.
  await press(sessionId, "ArrowDown", "ArrowDown", 40);
  await press(sessionId, "ArrowDown", "ArrowDown", 40);
  await press(sessionId, "Enter", "Enter", 13);
  const joined = await waitLine(/^undercooked: joined room/, "the quick match's join", 90);
  result.quick_joined_s = +(joined.t - navAt).toFixed(2);
  const code = joined.text.match(/joined room (\S+)/)?.[1];
  const where = (await s("Runtime.evaluate", { expression: "location.host" })).result.value;
  result.quick = { room: code, page_host: where, far_server: far };
  if (code !== room.code) throw new Error(`quick match joined ${code}, not the far server's public room ${room.code}`);
  if (where !== far) throw new Error(`the page is on ${where}, not the far server ${far}`);
  log(`quick match took the page to ${where} and seated it in ${code}`);
  rmSync(data, { recursive: true, force: true });
}

setTimeout(() => fail(`overall timeout ${timeoutSecs}s`), timeoutSecs * 1000 + 30000);

if (mode === "directory") {
  try {
    await playOnline();
    finish(0);
  } catch (e) {
    fail(String(e));
  }
}

if (mode !== "directory") try {
  const created = await fetch(`http://${web}/api/rooms`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(tandem ? { name: "Watcher", mode: "Tandem" } : { name: "Watcher" }),
  });
  const room = await created.json();
  if (!created.ok) throw new Error(`POST /api/rooms: HTTP ${created.status} ${JSON.stringify(room)}`);
  const url = `http://${web}/?room=${room.code}&name=Browser&players=${tandem ? 1 : 2}`;
  result.url = url;

  const { s, sessionId, targetId, navAt } = await openPage(url);
  log(`opened ${url}`);

  const first = await waitLine(/^undercooked: first frame/, "the first frame");
  result.first_frame_s = +(first.t - navAt).toFixed(2);
  const joined = await waitLine(/^undercooked: joined room/, "the join");
  result.joined_s = +(joined.t - navAt).toFixed(2);
  result.seat = Number(joined.text.match(/seat (\d+)/)?.[1]);
  result.seats = joined.text.match(/seats ([\d,]+)/)?.[1] ?? "";
  const wantSeats = tandem ? "1" : "1,2";
  if (result.seats !== wantSeats) throw new Error(`the page's players take seats ${wantSeats}: ${joined.text}`);
  await waitLine(/^undercooked: lobby phase Lobby/, "the lobby");

  // The watcher takes seat 0: with both seated, connected and ready the round starts.
  const watcher = spawn(
    bin,
    ["join", web, "--room", room.code, "--reconnect", room.reconnect, "--name", "Watcher",
      "--headless", "--inputs", "idle", "--seconds", String(watchSecs), "--stats"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let watcherOut = "";
  watcher.stdout.on("data", (d) => (watcherOut += d));
  const watcherDone = new Promise((r) => watcher.on("exit", (code) => r(code)));

  const round = await waitLine(/^undercooked: lobby phase Round/, "the round to start", 60);
  result.round_s = +(round.t - navAt).toFixed(2);

  // Focus the canvas (a click on it), then hold D, then S: the cook walks right, then down
  // (tutorial: seat 1 spawns at (5.5, 2.5) with floor to its right and below). In Tandem, D
  // alone: the aft handle pushes the couch east (the course's seed is the server's draw, so
  // east may be toward the first doorway or away; either way the couch moves).
  await s("Input.dispatchMouseEvent", { type: "mousePressed", x: 640, y: 360, button: "left", clickCount: 1 });
  await s("Input.dispatchMouseEvent", { type: "mouseReleased", x: 640, y: 360, button: "left", clickCount: 1 });
  const keys = [["d", "KeyD", 68], ["s", "KeyS", 83]].slice(0, tandem ? 1 : 2);
  for (const [key, code, vk] of keys) {
    await s("Input.dispatchKeyEvent", { type: "keyDown", key, code, windowsVirtualKeyCode: vk, text: key });
    await sleep(3000);
    await s("Input.dispatchKeyEvent", { type: "keyUp", key, code, windowsVirtualKeyCode: vk });
  }
  await sleep(500);

  const shot = await s("Page.captureScreenshot", { format: "png" });
  const png = Buffer.from(shot.data, "base64");
  writeFileSync(shotPath, png);
  const st = pngStats(png);
  result.screenshot = { path: shotPath, ...st };
  log(`screenshot ${shotPath}: ${st.width}x${st.height}, ${st.colours} colours, commonest ${(100 * st.commonest_share).toFixed(1)}%`);
  if (st.colours < 16 || st.commonest_share > 0.95) throw new Error("the screenshot is blank");

  // Browser-path bandwidth: two traffic reports inside the round, differenced.
  const inRound = () => lines.filter((l) => l.session === mainSession && l.t > round.t && l.text.startsWith("undercooked: traffic"));
  while (inRound().length < 2 && secs() - round.t < 40) await sleep(250);
  const reports = inRound().map((l) => l.text.match(/in=(\d+) out=(\d+) secs=([\d.]+)(?: frames=(\d+))?/).slice(1).map(Number));
  if (reports.length >= 2) {
    const [a, b] = reports.slice(-2);
    const dt = b[2] - a[2];
    result.round_traffic = {
      down_bytes_per_s: Math.round((b[0] - a[0]) / dt),
      up_bytes_per_s: Math.round((b[1] - a[1]) / dt),
      frames_per_s: Number.isNaN(b[3]) ? null : +((b[3] - a[3]) / dt).toFixed(1),
      over_s: +dt.toFixed(1),
    };
  }

  const code = await watcherDone;
  const stats = JSON.parse(watcherOut.trim().split("\n").pop() || "{}");
  if (tandem) checkTandem(code, stats, watcherOut);
  else {
    checkCooks(code, stats);
    await makeRoomFromMenu(targetId);
  }
  finish(0);
} catch (e) {
  fail(String(e));
}
