// Node entry of `tenure/search`: the simulator's counterexample search (`Search`) and the
// failover lab (`failoverMeasure`, `falseElections`, `failoverPlot`) in their own wasm module,
// loaded synchronously on import. Neither `tenure` (the machines) nor `tenure/sim` (the
// `Simulation`) loads this module, nor this one theirs.
import { readFileSync } from "node:fs";
import * as bindings from "../dist/tenure_search.js";
import { guardClasses } from "../guard.js";

bindings.initSync({ module: readFileSync(new URL("../dist/tenure_search_bg.wasm", import.meta.url)) });
// A call on a freed object throws a coded ERR_FREED error (pkg/guard.js).
guardClasses(bindings, undefined, "tenure/search");

export * from "../dist/tenure_search.js";

/**
 * Resolves at once: under Node the module is already loaded. Present so that code shared
 * with browsers can `await init()` everywhere.
 */
export async function init() {}

export default init;
