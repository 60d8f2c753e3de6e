// The self-contained <tenure-playground>: one ES module, `tenure-playground.js`, with the
// element, its stylesheet, fflate and the `tenure/sim` bindings inlined, and the simulator's
// wasm beside it (`tenure_sim_bg.wasm`, found through import.meta.url). A docs page needs one
// `<script type="module" src=".../tenure-playground.js">` and no bundler.
//
// Built into pkg/dist/ (the npm package's `tenure/playground`, beside the wasm the package
// already ships for `tenure/sim`) and into web/dist/ by build-web.mjs.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "./lib/run.mjs";

export const ELEMENT_FILE = "tenure-playground.js";
const WASM_FILE = "tenure_sim_bg.wasm";
const WASM = join(root, "pkg", "dist", WASM_FILE);

/**
 * Bundles web/playground/element.js into `outDir` (default pkg/dist) as ELEMENT_FILE, and
 * copies the wasm beside it when `outDir` is not pkg/dist itself. Needs pkg/dist built.
 */
export async function buildElement(outDir = join(root, "pkg", "dist")) {
  if (!existsSync(WASM)) throw new Error("pkg/dist/tenure_sim_bg.wasm is missing: run `npm run build` first");
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
      // One file: the parts the page loads on demand (compare mode, the permalink codec) are
      // inlined here, as a docs page's one script tag promises.
      rollupOptions: { output: { codeSplitting: false } },
    },
  });
  if (resolve(outDir) !== resolve(join(root, "pkg", "dist"))) copyFileSync(WASM, join(outDir, WASM_FILE));
  return join(outDir, ELEMENT_FILE);
}

/**
 * wasm-bindgen's glue finds its .wasm with `new URL('<name>_bg.wasm', import.meta.url)`.
 * Left to itself, Vite would inline that file as base64 in library mode (a third larger, and
 * parsed as JS); marked ignored, the bundle loads the wasm that sits beside it.
 */
function keepWasmBeside() {
  return {
    name: "tenure:keep-wasm-beside",
    enforce: "pre",
    transform(code, id) {
      const glue = /[\\/]dist[\\/](tenure(?:_sim)?)\.js$/.exec(id);
      if (!glue) return null;
      const wasm = `${glue[1]}_bg.wasm`;
      const pattern = new RegExp(`new URL\\(\\s*(['"])${wasm.replace(".", "\\.")}\\1\\s*,\\s*import\\.meta\\.url\\s*\\)`, "g");
      const out = code.replace(pattern, `new URL(/* @vite-ignore */ '${wasm}', import.meta.url)`);
      if (out === code) this.error(`${glue[1]}.js no longer loads ${wasm} through import.meta.url; update keepWasmBeside`);
      return { code: out, map: null };
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`element built: ${await buildElement(process.argv[2] ? resolve(process.argv[2]) : undefined)}`);
}
