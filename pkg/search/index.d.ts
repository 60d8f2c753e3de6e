// Public types of `tenure/search`: the counterexample search and the failover lab, plus `init`.
// The classes declare [Symbol.dispose] / [Symbol.asyncDispose] (`using`), so the types need the
// disposable lib whatever the project's own `lib` or `target` says.
/// <reference lib="esnext.disposable" />
export * from "../dist/tenure_search.js";
import type { InitInput } from "../dist/tenure_search.js";

/**
 * Loads the search module's wasm. Browsers: call (and await) it once before using the
 * exports; later calls return the same promise. Node: the module is loaded on import and this
 * resolves at once.
 * @param input where the `.wasm` comes from; defaults to `dist/tenure_search_bg.wasm` in the package.
 */
export declare function init(input?: InitInput | Promise<InitInput>): Promise<void>;
export default init;
