// `npm run build`: Rust -> three wasm modules -> pkg/dist/, incrementally.
//
// The bindings crate is built three times, once per Cargo feature, into three wasm-bindgen outputs:
//   machines -> pkg/dist/tenure.js + tenure_bg.wasm               (the main entry `tenure`)
//   sim      -> pkg/dist/tenure_sim.js + tenure_sim_bg.wasm       (the `tenure/sim` entry)
//   search   -> pkg/dist/tenure_search.js + tenure_search_bg.wasm (the `tenure/search` entry)
// so a service that imports FencedResource never downloads the simulator, and a page that
// plays a Simulation never downloads the search or the failover lab. For each module:
// 1. cargo build --profile <wasm-machines, wasm or wasm-search> --target wasm32-unknown-unknown -p tenure-wasm --features <f>
//    (cargo is incremental; the `wasm` profile in Cargo.toml is size-tuned);
// 2. wasm-bindgen --target web, with the CLI pinned to Cargo.lock's exact version;
// 3. wasm-opt -Oz from the npm `binaryen` package.
// Steps 2-3 are skipped when the cargo output, the tool versions and this script are unchanged
// (a stamp per module in pkg/dist/), so a no-change rebuild takes seconds. Then it bundles the
// self-contained <tenure-playground> (scripts/build-element.mjs) and prints each module's
// gzipped size next to its budget (scripts/budgets.json), failing when one is over.
//
// Each wasm-bindgen output (`--target web`) serves both environments: the browser entries call
// its async init, the Node entries its initSync with the bytes read from disk.
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { checkBudget, gzipped } from "./lib/budgets.mjs";
import { ensureNodeModules, ensureRustTools, ensureWasmBindgen } from "./lib/ensure.mjs";
import { capture, root, run } from "./lib/run.mjs";

// The features rustc enables by default for wasm32-unknown-unknown, all supported by Node 20
// and current browsers. Not --all-features: that lets wasm-opt emit instructions Node 20 rejects.
export const WASM_FEATURES = [
  "--enable-bulk-memory",
  "--enable-bulk-memory-opt",
  "--enable-nontrapping-float-to-int",
  "--enable-sign-ext",
  "--enable-mutable-globals",
  "--enable-reference-types",
  "--enable-multivalue",
];

const OUT = join(root, "pkg", "dist");

/**
 * The three modules: Cargo feature and profile (Cargo.toml: `wasm-machines` is `wasm` at
 * opt-level "z", `wasm-search` is `wasm` in a folder of its own), wasm-bindgen out-name, budget name in scripts/budgets.json.
 */
export const MODULES = [
  { feature: "machines", profile: "wasm-machines", name: "tenure", budget: "machines wasm (tenure)" },
  { feature: "sim", profile: "wasm", name: "tenure_sim", budget: "sim wasm (tenure/sim)" },
  { feature: "search", profile: "wasm-search", name: "tenure_search", budget: "search wasm (tenure/search)" },
];

export function build() {
  ensureRustTools();
  const wasmBindgen = ensureWasmBindgen();
  ensureNodeModules();
  const targetDir = process.env.CARGO_TARGET_DIR ?? join(root, "target");
  for (const module of MODULES) buildModule(module, wasmBindgen, targetDir);

  // `tenure/playground`: the self-contained <tenure-playground> beside the simulator's wasm (a
  // child process, because Vite's build is async and this function is not).
  run(process.execPath, [join(root, "scripts", "build-element.mjs")]);

  const sizes = {};
  const over = [];
  for (const { name, budget } of MODULES) {
    const wasm = readFileSync(join(OUT, `${name}_bg.wasm`));
    const gz = gzipped(wasm);
    sizes[name] = { raw: wasm.length, gzipped: gz };
    const error = checkBudget(budget, gz, ` (pkg/dist/${name}_bg.wasm, ${kib(wasm.length)} raw)`);
    if (error) over.push(error);
  }
  if (over.length) throw new Error(over.join("; "));
  return sizes;
}

/** Builds one feature of the bindings crate into pkg/dist/<name>.js, .d.ts and _bg.wasm. */
function buildModule({ feature, profile, name }, wasmBindgen, targetDir) {
  run("cargo", [
    "build",
    "--profile",
    profile,
    "--target",
    "wasm32-unknown-unknown",
    "-p",
    "tenure-wasm",
    "--no-default-features",
    "--features",
    feature,
  ]);
  const raw = join(targetDir, "wasm32-unknown-unknown", profile, "tenure_wasm.wasm");
  const shipped = [`${name}.js`, `${name}.d.ts`, `${name}_bg.wasm`];
  const stampPath = join(OUT, `.build-stamp-${feature}`);
  const stamp = hash([
    readFileSync(raw),
    capture(wasmBindgen, ["--version"]),
    readFileSync(join(root, "package-lock.json")),
    readFileSync(new URL(import.meta.url)),
  ]);
  const fresh =
    existsSync(stampPath) &&
    readFileSync(stampPath, "utf8") === stamp &&
    shipped.every((f) => existsSync(join(OUT, f)));
  if (fresh) {
    console.log(`pkg/dist/${name}_bg.wasm is up to date with the cargo output: skipping wasm-bindgen and wasm-opt`);
    return;
  }
  const staging = join(targetDir, "wasm-bindgen", feature);
  rmSync(staging, { recursive: true, force: true });
  run(wasmBindgen, ["--target", "web", "--out-dir", staging, "--out-name", name, raw]);
  mkdirSync(OUT, { recursive: true });
  run(join(root, "node_modules", ".bin", "wasm-opt"), [
    "-Oz",
    // Passes repeated until the module stops shrinking: -0.3 KB gzipped on each module (docs/bindings.md).
    "--converge",
    ...WASM_FEATURES,
    join(staging, `${name}_bg.wasm`),
    "-o",
    join(OUT, `${name}_bg.wasm`),
  ]);
  copyFileSync(join(staging, `${name}.js`), join(OUT, `${name}.js`));
  // The JS snippets the glue imports (`#[wasm_bindgen(inline_js)]`: the machines' lease fast
  // path, crates/tenure-wasm/src/lease_fast.rs), under pkg/dist/snippets/<crate>-<hash>/.
  const snippets = join(staging, "snippets");
  if (existsSync(snippets)) {
    for (const dir of readdirSync(snippets)) rmSync(join(OUT, "snippets", dir), { recursive: true, force: true });
    cpSync(snippets, join(OUT, "snippets"), { recursive: true });
  }
  writeFileSync(join(OUT, `${name}.d.ts`), typedInitOutput(readFileSync(join(staging, `${name}.d.ts`), "utf8")));
  writeFileSync(stampPath, stamp);
}

/**
 * The sim module with its test-only exports (the Cargo feature `reference`:
 * `Simulation.__snapshotSerde`, the serde-wasm-bindgen snapshot that pkg/sim/snapshot.js's
 * reader is checked against), for tests only: built into target/reference/ (never pkg/dist/)
 * on the `wasm-reference` profile (Cargo.toml), without wasm-opt. Returns the paths of its
 * glue and its wasm. Incremental like the shipped build: cargo and wasm-bindgen rerun only
 * when the cargo output changed.
 */
export function buildReference() {
  ensureRustTools();
  const wasmBindgen = ensureWasmBindgen();
  const targetDir = process.env.CARGO_TARGET_DIR ?? join(root, "target");
  const profile = "wasm-reference";
  run("cargo", ["build", "--profile", profile, "--target", "wasm32-unknown-unknown", "-p", "tenure-wasm", "--no-default-features", "--features", "sim,reference"]);
  const raw = join(targetDir, "wasm32-unknown-unknown", profile, "tenure_wasm.wasm");
  const out = join(targetDir, "reference");
  const stampPath = join(out, ".build-stamp");
  const stamp = hash([readFileSync(raw), capture(wasmBindgen, ["--version"])]);
  const glue = join(out, "tenure_sim.js");
  const wasm = join(out, "tenure_sim_bg.wasm");
  if (!(existsSync(stampPath) && readFileSync(stampPath, "utf8") === stamp && existsSync(glue) && existsSync(wasm))) {
    rmSync(out, { recursive: true, force: true });
    run(wasmBindgen, ["--target", "web", "--out-dir", out, "--out-name", "tenure_sim", raw]);
    writeFileSync(stampPath, stamp);
  }
  return { glue, wasm };
}

/**
 * wasm-bindgen types the raw wasm exports of its generated `InitOutput` interface `any`; the
 * public .d.ts has no `any`, so inside that interface only (never in prose) they become
 * `unknown`. tests/pkg/types.test.mjs checks the shipped declarations for `any`.
 */
export function typedInitOutput(dts) {
  const start = dts.indexOf("export interface InitOutput {");
  if (start < 0) throw new Error("wasm-bindgen's .d.ts has no InitOutput interface; update typedInitOutput");
  const end = dts.indexOf("\n}", start);
  const block = dts.slice(start, end).replace(/\bany\b/g, "unknown");
  return dts.slice(0, start) + block + dts.slice(end);
}

function hash(parts) {
  const h = createHash("sha256");
  for (const part of parts) h.update(String(part?.length ?? 0)).update(part ?? "");
  return h.digest("hex");
}

function kib(bytes) {
  return `${(bytes / 1024).toFixed(1)} KiB (${bytes} bytes)`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const start = performance.now();
  try {
    build();
  } catch (err) {
    console.error(`build failed: ${err.message}`);
    process.exit(1);
  }
  console.log(`build done in ${((performance.now() - start) / 1000).toFixed(1)} s`);
}
