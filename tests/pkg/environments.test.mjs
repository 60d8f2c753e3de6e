// Environments (convention 11): the packed tarball, installed into a fresh
// project, works from a Vite build and from a plain <script type=module> page with an import
// map, both opened in Chromium (Node ESM is covered by packaging.test.mjs). Each page imports
// the main entry only, so it fetches the machines' wasm and never the simulator's or the search's.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { after, before, test } from "node:test";
import { chromium } from "playwright-core";
import { build } from "vite";
import { root } from "../../scripts/lib/run.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"];
const FIXTURES = join(root, "tests", "pkg", "fixtures", "browser");
const EXPECTED = {
  beforeInit: { code: "ERR_NOT_INITIALIZED", saysInit: true },
  electionBeforeInit: { code: "ERR_NOT_INITIALIZED", saysInit: true },
  election: {
    elected: { leader: true, token: "1n" },
    wrote: true,
    refused: { leader: false, holder: "tab-a" },
    reason: "StoreUnreachable",
    unanswered: true,
    nodeIdIsUuid: true,
  },
  events: [{ type: "Elected", token: "1n", deadline_ms: 9000 }],
  write: { accepted: false, reason: "stale fencing token", presented: "1n", required: "2n" },
  error: { name: "RangeError", code: "ERR_MILLIS_RANGE" },
  raft: "Leader",
  bully: "Coordinator",
  seedDrawn: true,
};

let work;
let project;
let browser;
const servers = [];

before(async () => {
  work = mkdtempSync(join(tmpdir(), "tenure-env-"));
  const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const [info] = JSON.parse(npm(["pack", join(root, "pkg"), "--pack-destination", work, "--json"], work));
  project = join(work, "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "web-consumer", private: true, type: "module", dependencies: { tenure: `file:${join(work, info.filename)}` } }));
  npm(["install", "--offline", "--no-audit", "--no-fund"], project);
  for (const f of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, f), join(project, f));
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
});

after(async () => {
  await browser?.close();
  for (const s of servers) s.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

/** A static file server for `dir` on a free port; resolves to its base URL. */
function serve(dir) {
  const server = createServer((req, res) => {
    const path = normalize(join(dir, decodeURIComponent(new URL(req.url, "http://x").pathname)));
    if (!path.startsWith(dir) || !existsSync(path) || !statSync(path).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
    createReadStream(path).pipe(res);
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${server.address().port}/`)));
}

async function run(url) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(String(err)));
  page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
  const wasm = [];
  page.on("request", (req) => {
    const path = new URL(req.url()).pathname;
    if (path.endsWith(".wasm")) wasm.push(path.slice(path.lastIndexOf("/") + 1));
  });
  await page.goto(url);
  await page.locator("body[data-ready=true]").waitFor({ timeout: 20_000 });
  const text = await page.locator("#result").textContent();
  await page.close();
  assert.deepEqual(errors, []);
  assert.ok(!text.startsWith("FAILED"), text);
  assert.equal(wasm.length, 1, `one wasm fetched: ${wasm}`);
  assert.doesNotMatch(wasm[0], /sim|search/, `the main entry fetches the machines' wasm only: ${wasm}`);
  return JSON.parse(text);
}

test("vite_build_of_a_page_importing_tenure_runs_in_chromium", async () => {
  await build({
    configFile: false,
    root: project,
    logLevel: "warn",
    build: { outDir: join(project, "dist"), emptyOutDir: true, rollupOptions: { input: join(project, "vite.html") } },
  });
  const assets = readdirSync(join(project, "dist", "assets"));
  const wasmAssets = assets.filter((f) => f.endsWith(".wasm"));
  assert.equal(wasmAssets.length, 1, `one .wasm is emitted as an asset: ${assets}`);
  assert.doesNotMatch(wasmAssets[0], /sim|search/, `the main entry bundles the machines' wasm only: ${assets}`);
  const base = await serve(join(project, "dist"));
  assert.deepEqual(await run(`${base}vite.html`), EXPECTED);
});

test("plain_script_module_page_with_an_import_map_runs_in_chromium", async () => {
  const base = await serve(project);
  assert.deepEqual(await run(`${base}plain.html`), EXPECTED);
});
