// Browser (and default) entry of `tenure/search`: call `await init()` once before using any
// export. It fetches `dist/tenure_search_bg.wasm` (the search and the failover lab), never the
// simulator's `dist/tenure_sim_bg.wasm` nor the machines' `dist/tenure_bg.wasm`. Until then
// `Search` throws ERR_NOT_INITIALIZED; a call on a freed object throws ERR_FREED
// (pkg/guard.js).
import wasmInit, * as bindings from "../dist/tenure_search.js";
import { guardClasses, guardConstructor, wasmLoader } from "../guard.js";
import { undefinedArgs } from "./args.js";

export * from "../dist/tenure_search.js";

const loader = wasmLoader(wasmInit, bindings);
const isReady = loader.isReady;
guardClasses(bindings, isReady, "tenure/search");

// Constructors cannot be patched in place: this name shadows the star export above.
export const Search = guardConstructor(bindings.Search, isReady, "tenure/search");

// An argument left out is said to be `undefined`, not `null` (pkg/search/args.js);
// these names, like Search, shadow the star export above.
export const failoverMeasure = undefinedArgs(bindings.failoverMeasure, ["failover setting", "seed", null]);
export const falseElections = undefinedArgs(bindings.falseElections, ["failover setting", "seed", "disturbance"]);
export const failoverPlot = undefinedArgs(bindings.failoverPlot, [null, "plot series"]);

/**
 * Fetches and instantiates the search module's wasm (once; later calls return the same
 * promise). `input` overrides where the `.wasm` comes from (a URL, a Response, bytes or a
 * module); by default it is `dist/tenure_search_bg.wasm` inside the package.
 */
export const init = loader.init;

/** Instantiates the search module's wasm synchronously from its bytes or a compiled module. */
export const initSync = loader.initSync;

export default init;
