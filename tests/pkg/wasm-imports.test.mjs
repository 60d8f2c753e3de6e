// Each shipped .wasm (the machines' and the simulator's) imports only the wasm-bindgen glue: no `env` module (docs/conventions.md,
// "Everywhere": the core builds for wasm32 with no `env` imports), so nothing in Rust reaches
// for a libc, a clock or a random source behind the bindings' back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve("tenure/package.json"));

for (const name of ["tenure", "tenure_sim"]) {
  test(`the ${name} wasm module imports nothing but its own bindgen glue`, () => {
    const module = new WebAssembly.Module(readFileSync(join(pkgDir, "dist", `${name}_bg.wasm`)));
    const modules = new Set(WebAssembly.Module.imports(module).map((i) => i.module));
    assert.deepEqual([...modules], [`./${name}_bg.js`]);
  });
}
