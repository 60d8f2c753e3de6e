// Browser (and default) entry of `tenure`: call `await init()` once before using any export.
import wasmInit from "./dist/tenure.js";

export * from "./dist/tenure.js";
export * from "./election/index.js";

let ready;

/**
 * Fetches and instantiates the wasm module (once; later calls return the same promise).
 * `input` overrides where the `.wasm` comes from (a URL, a Response, bytes or a module);
 * by default it is `dist/tenure_bg.wasm` next to this file.
 */
export function init(input) {
  ready ??= wasmInit(input === undefined ? undefined : { module_or_path: input }).then(() => {});
  return ready;
}

export default init;
