// `npm run build:web`: the playground as static files for hosting (docs, GitHub Pages...):
// builds the wasm package if needed, then bundles web/ with Vite into web/dist/ (git-ignored).
// Every page is an entry: index.html (the full playground), embed.html (for iframes) and
// examples.html (two embedded playgrounds). Paths are relative, so the folder can live anywhere.
// Beside them, the self-contained element for docs pages: tenure-playground.js and its wasm.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
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
      rollupOptions: { input: PAGES.map((f) => join(root, "web", f)) },
    },
  });
  const { buildElement } = await import("./build-element.mjs");
  await buildElement(outDir);
  return outDir;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { ensureNodeModules } = await import("./lib/ensure.mjs");
  ensureNodeModules();
  (await import("./build.mjs")).build();
  console.log(`playground built into ${await buildWeb()}`);
}
