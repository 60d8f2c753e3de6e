// `npm run bench`: figures, not pass/fail (docs/design.md "Commands"; js-conventions: no timed
// assertions in tests). A small runner: it builds the package (which prints the gzipped .wasm
// size), then runs every bench/*.mjs file in name order. Each file's default export is an async
// function that prints its own figures; several helpers add files there without touching this one.
//
//   npm run bench                 every bench file
//   npm run bench -- lease sim    only files whose name contains "lease" or "sim"
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./lib/run.mjs";

const filters = process.argv.slice(2);
const dir = join(root, "bench");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".mjs") && !f.startsWith("_"))
  .filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)))
  .sort();

const { build } = await import("./build.mjs");
const sizes = build();
console.log("\n== package");
for (const [name, size] of Object.entries(sizes)) {
  console.log(`${name}_bg.wasm gzipped: ${(size.gzipped / 1000).toFixed(1)} KB (${size.gzipped} bytes; raw ${size.raw} bytes)`);
}

let failed = false;
for (const file of files) {
  console.log(`\n== ${file}`);
  try {
    const mod = await import(pathToFileURL(join(dir, file)).href);
    if (typeof mod.default === "function") await mod.default({ wasm: sizes });
  } catch (err) {
    failed = true;
    console.error(`bench/${file} failed: ${err?.stack ?? err}`);
  }
}
if (failed) process.exitCode = 1;
