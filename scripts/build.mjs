// `npm run build`: Rust -> wasm -> pkg/dist/, incrementally.
//
// 1. cargo build --profile wasm --target wasm32-unknown-unknown -p tenure-wasm (cargo is
//    incremental; the `wasm` profile in Cargo.toml is size-tuned, `release` is the native one);
// 2. wasm-bindgen --target web, with the CLI pinned to Cargo.lock's exact version;
// 3. wasm-opt -Oz from the npm `binaryen` package;
// 4. bundles the self-contained <tenure-playground> (scripts/build-element.mjs) beside it;
// 5. prints the gzipped size of the shipped .wasm.
// Steps 2-3 are skipped when the cargo output, the tool versions and this script are unchanged
// (a stamp in pkg/dist/), so a no-change rebuild takes seconds.
//
// One wasm-bindgen output (`--target web`) serves both package entries: pkg/browser.js calls its
// async init, pkg/node.js its initSync with the bytes read from disk. So the package ships one
// .wasm, not one per environment.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { ensureNodeModules, ensureRustTools, ensureWasmBindgen } from "./lib/ensure.mjs";
import { capture, root, run } from "./lib/run.mjs";

// The features rustc enables by default for wasm32-unknown-unknown, all supported by Node 20
// and current browsers. Not --all-features: that lets wasm-opt emit instructions Node 20 rejects.
const WASM_FEATURES = [
  "--enable-bulk-memory",
  "--enable-bulk-memory-opt",
  "--enable-nontrapping-float-to-int",
  "--enable-sign-ext",
  "--enable-mutable-globals",
  "--enable-reference-types",
  "--enable-multivalue",
];

const OUT = join(root, "pkg", "dist");
const SHIPPED = ["tenure.js", "tenure.d.ts", "tenure_bg.wasm"];

export function build() {
  ensureRustTools();
  const wasmBindgen = ensureWasmBindgen();
  ensureNodeModules();

  run("cargo", ["build", "--profile", "wasm", "--target", "wasm32-unknown-unknown", "-p", "tenure-wasm"]);
  const targetDir = process.env.CARGO_TARGET_DIR ?? join(root, "target");
  const raw = join(targetDir, "wasm32-unknown-unknown", "wasm", "tenure_wasm.wasm");

  const stampPath = join(OUT, ".build-stamp");
  const stamp = hash([
    readFileSync(raw),
    capture(wasmBindgen, ["--version"]),
    readFileSync(join(root, "package-lock.json")),
    readFileSync(new URL(import.meta.url)),
  ]);
  const fresh =
    existsSync(stampPath) &&
    readFileSync(stampPath, "utf8") === stamp &&
    SHIPPED.every((f) => existsSync(join(OUT, f)));
  if (fresh) {
    console.log("pkg/dist is up to date with the cargo output: skipping wasm-bindgen and wasm-opt");
  } else {
    const staging = join(targetDir, "wasm-bindgen");
    rmSync(staging, { recursive: true, force: true });
    run(wasmBindgen, ["--target", "web", "--out-dir", staging, "--out-name", "tenure", raw]);
    mkdirSync(OUT, { recursive: true });
    run(join(root, "node_modules", ".bin", "wasm-opt"), [
      "-Oz",
      ...WASM_FEATURES,
      join(staging, "tenure_bg.wasm"),
      "-o",
      join(OUT, "tenure_bg.wasm"),
    ]);
    copyFileSync(join(staging, "tenure.js"), join(OUT, "tenure.js"));
    writeFileSync(join(OUT, "tenure.d.ts"), noAny(readFileSync(join(staging, "tenure.d.ts"), "utf8")));
    writeFileSync(stampPath, stamp);
  }

  // `tenure/playground`: the self-contained <tenure-playground> beside the same wasm (a child
  // process, because Vite's build is async and this function is not).
  run(process.execPath, [join(root, "scripts", "build-element.mjs")]);

  const wasm = readFileSync(join(OUT, "tenure_bg.wasm"));
  const gzipped = gzipSync(wasm, { level: 9 }).length;
  console.log(`pkg/dist/tenure_bg.wasm: ${kib(wasm.length)} raw, ${kib(gzipped)} gzipped`);
  return { raw: wasm.length, gzipped };
}

/** The generated InitOutput lists raw wasm exports typed `any`; the public .d.ts has no `any`. */
function noAny(dts) {
  return dts.replace(/\bany\b/g, "unknown");
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
