// The self-contained <tenure-playground>: one ES module, `tenure-playground.js`, with the
// element, its stylesheet, fflate and the `tenure` bindings inlined, and the wasm beside it
// (`tenure_bg.wasm`, found through import.meta.url). A docs page needs one
// `<script type="module" src=".../tenure-playground.js">` and no bundler.
//
// Built into pkg/dist/ (the npm package's `tenure/playground`, beside the one wasm file the
// package already ships, so `import "tenure"` loads exactly what it loaded before) and into
// web/dist/ by build-web.mjs.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./lib/run.mjs";

export const ELEMENT_FILE = "tenure-playground.js";
const WASM = join(root, "pkg", "dist", "tenure_bg.wasm");

/**
 * Bundles web/playground/element.js into `outDir` (default pkg/dist) as ELEMENT_FILE, and
 * copies the wasm beside it when `outDir` is not pkg/dist itself. Needs pkg/dist built.
 */
export async function buildElement(outDir = join(root, "pkg", "dist")) {
  if (!existsSync(WASM)) throw new Error("pkg/dist/tenure_bg.wasm is missing: run `npm run build` first");
  const { build } = await import("vite");
  mkdirSync(outDir, { recursive: true });
  await build({
    configFile: false,
    root: join(root, "web"),
    logLevel: "warn",
    publicDir: false,
    plugins: [keepWasmBeside()],
    build: {
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      minify: true,
      lib: { entry: join(root, "web", "playground", "element.js"), formats: ["es"], fileName: () => ELEMENT_FILE },
    },
  });
  if (resolve(outDir) !== resolve(join(root, "pkg", "dist"))) copyFileSync(WASM, join(outDir, "tenure_bg.wasm"));
  return join(outDir, ELEMENT_FILE);
}

/**
 * wasm-bindgen's glue finds its .wasm with `new URL('tenure_bg.wasm', import.meta.url)`.
 * Left to itself, Vite would inline that file as base64 in library mode (a third larger, and
 * parsed as JS); marked ignored, the bundle loads the wasm that sits beside it.
 */
function keepWasmBeside() {
  return {
    name: "tenure:keep-wasm-beside",
    enforce: "pre",
    transform(code, id) {
      if (!/[\\/]dist[\\/]tenure\.js$/.test(id)) return null;
      const out = code.replace(/new URL\(\s*(['"])tenure_bg\.wasm\1\s*,\s*import\.meta\.url\s*\)/g, "new URL(/* @vite-ignore */ 'tenure_bg.wasm', import.meta.url)");
      if (out === code) this.error("tenure.js no longer loads tenure_bg.wasm through import.meta.url; update keepWasmBeside");
      return { code: out, map: null };
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`element built: ${await buildElement(process.argv[2] ? resolve(process.argv[2]) : undefined)}`);
}
