// `npm test`: everything, from a fresh clone, with no other step.
// Installs what is missing first (wasm target, rustfmt/clippy, wasm-bindgen CLI, node_modules,
// Chromium, the Redis/PostgreSQL/etcd servers, and for the fuzz smoke nightly + cargo-fuzz),
// then: cargo fmt --check, clippy -D warnings, cargo test, cargo doc (-D warnings), a short
// fuzz run per machine, the wasm build, the static playground's build (its page budget), the
// package tests, the store tests against real servers and the browser tests. Stops at the
// first failure and prints how long each step took.
import { ensureChromium, ensureNodeModules, ensureRustTools, ensureStoreServers, ensureWasmBindgen } from "./lib/ensure.mjs";
import { capture, run, step } from "./lib/run.mjs";

const timings = [];
const start = performance.now();

try {
  await step("install what is missing", () => {
    ensureRustTools({ lint: true });
    ensureWasmBindgen();
    ensureNodeModules();
    process.env.CHROMIUM_PATH = ensureChromium();
    return ensureStoreServers();
  }, timings);
  await step("cargo fmt --check", () => run("cargo", ["fmt", "--all", "--check"]), timings);
  await step("cargo clippy", () => run("cargo", ["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]), timings);
  // The bindings have wasm32-only code paths that the host clippy run does not see.
  await step("cargo clippy (wasm32 bindings)", () =>
    run("cargo", ["clippy", "-p", "tenure-wasm", "--target", "wasm32-unknown-unknown", "--", "-D", "warnings"]), timings);
  // Each shipped module alone (scripts/build.mjs builds one feature at a time), and the sim
  // module's test build (tests/pkg/simulation-snapshot.test.mjs).
  for (const feature of ["machines", "sim", "search", "sim,reference"]) {
    await step(`cargo clippy (wasm32 ${feature} module)`, () =>
      run("cargo", ["clippy", "-p", "tenure-wasm", "--target", "wasm32-unknown-unknown", "--no-default-features", "--features", feature, "--", "-D", "warnings"]), timings);
  }
  await step("cargo test", () => run("cargo", ["test", "--workspace"]), timings);
  await step("cargo doc", () =>
    run("cargo", ["doc", "--workspace", "--no-deps"], { env: { ...process.env, RUSTDOCFLAGS: "-D warnings" } }), timings);
  await step("core has no wasm-bindgen dependency", coreIsPlainRust, timings);
  // Each machine's fuzz target for a few seconds (no panic, bounded outputs); `npm run fuzz`
  // runs them longer. Falls back to the same bodies on stable if cargo-fuzz cannot install.
  await step("fuzz smoke", async () => {
    const { fuzz } = await import("./lib/fuzz.mjs");
    for (const r of fuzz({ seconds: 12 })) console.log(`fuzz ${r.target}: ${r.execs} execs (${r.engine})`);
  }, timings);
  await step("build wasm package", async () => (await import("./build.mjs")).build(), timings);
  // The static playground (`npm run build:web`), for its page budget: the browser tests run
  // the pages from Vite's dev server, which counts nothing, so a module the page loads could
  // grow past the budget unseen.
  await step("build playground (page budget)", async () => (await import("./build-web.mjs")).buildWeb(), timings);
  await step("package tests", () => run(process.execPath, ["--test", "tests/pkg/"]), timings);
  // Real Redis, PostgreSQL and etcd servers, started by the tests on 127.0.0.1 (one file at a
  // time: each file starts its own servers, and the chaos runs want the cores to themselves).
  await step("store tests (real servers)", () =>
    run(process.execPath, ["--test", "--test-concurrency=1", "tests/stores/"]), timings);
  await step("browser tests", () => run(process.execPath, ["--test", "tests/web/"]), timings);
} catch (err) {
  report();
  console.error(`\nnpm test FAILED: ${err.message}`);
  process.exit(1);
}
report();
console.log("\nnpm test passed");

/** The core builds for wasm32 without wasm-bindgen (no JS types in the core). */
function coreIsPlainRust() {
  const tree = capture("cargo", ["tree", "-p", "tenure", "--target", "wasm32-unknown-unknown", "-e", "normal", "--prefix", "none"]);
  if (tree === null) throw new Error("cargo tree -p tenure failed");
  const js = tree.split("\n").filter((line) => /^(wasm-bindgen|js-sys|web-sys)\b/.test(line));
  if (js.length > 0) throw new Error(`crates/tenure depends on JS bindings: ${js.join(", ")}`);
  console.log("crates/tenure's wasm32 dependency tree has no wasm-bindgen/js-sys/web-sys");
}

function report() {
  console.log("\nstep timings:");
  for (const [name, seconds] of timings) console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${name}`);
  console.log(`  ${((performance.now() - start) / 1000).toFixed(1).padStart(7)} s  total`);
}
