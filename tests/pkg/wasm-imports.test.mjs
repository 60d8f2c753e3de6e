// Each shipped .wasm (the machines', the simulator's and the search's) imports only the wasm-bindgen glue: no `env` module (docs/conventions.md,
// "Everywhere": the core builds for wasm32 with no `env` imports), so nothing in Rust reaches
// for a libc, a clock or a random source behind the bindings' back. The glue is wasm-bindgen's
// `<name>_bg.js` and, for the machines, the JS snippets shipped beside it in dist/snippets/
// (crates/tenure-wasm/src/lease_fast.rs), which the wasm may import directly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve("tenure/package.json"));

for (const name of ["tenure", "tenure_sim", "tenure_search"]) {
  test(`the ${name} wasm module imports nothing but its own bindgen glue`, () => {
    const module = new WebAssembly.Module(readFileSync(join(pkgDir, "dist", `${name}_bg.wasm`)));
    const modules = new Set(WebAssembly.Module.imports(module).map((i) => i.module));
    assert.ok(modules.has(`./${name}_bg.js`), `${name} imports its glue`);
    for (const m of modules) {
      if (m === `./${name}_bg.js`) continue;
      assert.match(m, /^\.\/snippets\/tenure-wasm-[0-9a-f]+\/inline\d+\.js$/, `${name} imports ${m}`);
      assert.ok(existsSync(join(pkgDir, "dist", m)), `${m} is shipped in dist/`);
    }
  });
}
