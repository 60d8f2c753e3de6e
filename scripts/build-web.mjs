// `npm run build:web`: the playground as static files for hosting (docs, GitHub Pages...):
// builds the wasm package if needed, then bundles web/ with Vite into web/dist/ (git-ignored).
// Every page is an entry: index.html (the full playground), embed.html (for iframes) and
// examples.html (two embedded playgrounds). Paths are relative, so the folder can live anywhere.
// Beside them, the self-contained element for docs pages: tenure-playground.js and its wasm.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { checkBudget, gzipped } from "./lib/budgets.mjs";
import { root } from "./lib/run.mjs";

export const PAGES = ["index.html", "embed.html", "examples.html", "compare.html", "failover.html"];

/** Bundles web/ into `outDir` (default web/dist). */
export async function buildWeb(outDir = join(root, "web", "dist")) {
  const { build } = await import("vite");
  await build({
    configFile: false,
    root: join(root, "web"),
    base: "./",
    logLevel: "warn",
    // The "Can this break?" worker imports the wasm bindings as an ES module.
    worker: { format: "es" },
    build: {
      outDir,
      emptyOutDir: true,
      // .vite/manifest.json: what each page loads, for its size budget.
      manifest: true,
      // Every browser the wasm runs in (reference types, bulk memory...) knows modulepreload;
      // one without it still loads each module when imported.
      modulePreload: { polyfill: false },
      rollupOptions: {
        input: PAGES.map((f) => join(root, "web", f)),
        // The element in one chunk (ELEMENT), rather than in the chunks Rollup would cut
        // where its pages share modules: one gzip stream compresses better (docs/bindings.md).
        output: { codeSplitting: { includeDependenciesRecursively: false, groups: [{ name: "element", test: ELEMENT }] } },
        // A module imported on demand that lands in a chunk the page loads anyway (ELEMENT
        // catching it, or a static import elsewhere) would count in the first load: refuse it.
        onLog(level, log, handler) {
          if (log.code === "INEFFECTIVE_DYNAMIC_IMPORT") throw new Error(`build:web: ${log.message}; keep it out of ELEMENT (scripts/build-web.mjs)`);
          handler(level, log);
        },
      },
    },
  });
  const { buildElement } = await import("./build-element.mjs");
  await buildElement(outDir);
  const error = checkPageBudget(outDir, "index.html", "playground page (web/index.html, everything it loads)");
  if (error) throw new Error(error);
  return outDir;
}

/**
 * The modules of the element's chunk: web/playground/ and the simulator's bindings, but not
 * what is loaded on demand (compare mode, "Can this break?" and its worker, the permalink
 * codec, counterexample stories) nor what the failover lab's page shares (svg.js, the lab).
 */
const ELEMENT = /web[\\/]playground[\\/](?!(element-compare|compare[\w-]*|break-panel|counterexample|permalink|search-worker|failover-[\w-]+|svg)\.(js|css))|pkg[\\/]sim[\\/]|pkg[\\/]dist[\\/]tenure_sim\.js/;

/**
 * Modules a page imports only when the reader uses or reaches a part of it, not on its first
 * load: the machines' entry, which the fenced-resource demo of index.html fetches when its
 * section comes within 200 px of the viewport or is focused, pressed or submitted
 * (web/fenced-demo.js); the search module's (`tenure/search`: Search and the failover lab),
 * which the "Can this break?" panel's and the failover lab's workers load when a search or a
 * measurement starts; the "Can this break?" panel itself, mounted when its section comes
 * within 200 px of the viewport (web/main.js); the element's compare mode, loaded by an
 * element with a `compare` attribute; the permalink codec (with fflate), loaded to open a link
 * or when one is asked for, and the counterexample stories, loaded to open a link to one
 * (web/playground/element.js). Keys of Vite's manifest.
 */
export const ON_DEMAND = new Set([
  "../pkg/browser.js",
  "../pkg/search/browser.js",
  "playground/break-panel.js",
  "playground/counterexample.js",
  "playground/element-compare.js",
  "playground/permalink.js",
]);

/**
 * The files `page` loads as built without interaction (its first load, as a reader who does
 * not scroll or click sees it): the HTML, then from Vite's manifest its entry chunk and every
 * chunk, stylesheet and asset (the .wasm files included) reachable through static and dynamic
 * imports, except the ON_DEMAND modules above. Web Workers started on demand (the search
 * worker, emitted as a .js asset) are not counted either. Returns their gzipped sizes, keyed
 * by file.
 */
export function pageFiles(outDir, page) {
  const manifest = JSON.parse(readFileSync(join(outDir, ".vite", "manifest.json"), "utf8"));
  const files = new Map([[page, gzipped(readFileSync(join(outDir, page)))]]);
  const seen = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    const assets = (chunk.assets ?? []).filter((f) => !f.endsWith(".js"));
    for (const file of [chunk.file, ...(chunk.css ?? []), ...assets]) {
      if (!files.has(file)) files.set(file, gzipped(readFileSync(join(outDir, file))));
    }
    for (const next of chunk.imports ?? []) visit(next);
    for (const next of chunk.dynamicImports ?? []) if (!ON_DEMAND.has(next)) visit(next);
  };
  visit(page);
  return files;
}

/** Prints the page's gzipped total next to its budget; returns an error message when over. */
function checkPageBudget(outDir, page, budget) {
  const files = pageFiles(outDir, page);
  const total = [...files.values()].reduce((a, b) => a + b, 0);
  const wasm = [...files].filter(([f]) => f.endsWith(".wasm"));
  const detail = `: ${files.size} files, of which wasm ${wasm.map(([f, n]) => `${f} ${(n / 1000).toFixed(1)} KB`).join(" + ")}`;
  return checkBudget(budget, total, detail);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { ensureNodeModules } = await import("./lib/ensure.mjs");
  ensureNodeModules();
  (await import("./build.mjs")).build();
  console.log(`playground built into ${await buildWeb()}`);
}
