// Node entry of `tenure/search`: the simulator's counterexample search (`Search`) and the
// failover lab (`failoverMeasure`, `falseElections`, `failoverPlot`) in their own wasm module,
// loaded synchronously on import. Neither `tenure` (the machines) nor `tenure/sim` (the
// `Simulation`) loads this module, nor this one theirs.
import { readFileSync } from "node:fs";
import * as bindings from "../dist/tenure_search.js";
import { guardClasses } from "../guard.js";
import { undefinedArgs } from "./args.js";

bindings.initSync({ module: readFileSync(new URL("../dist/tenure_search_bg.wasm", import.meta.url)) });
// A call on a freed object throws a coded ERR_FREED error (pkg/guard.js).
guardClasses(bindings, undefined, "tenure/search");

export * from "../dist/tenure_search.js";

// An argument left out is said to be `undefined`, not `null` (pkg/search/args.js);
// these names shadow the star export above.
export const failoverMeasure = undefinedArgs(bindings.failoverMeasure, ["failover setting", "seed", null]);
export const falseElections = undefinedArgs(bindings.falseElections, ["failover setting", "seed", "disturbance"]);
export const failoverPlot = undefinedArgs(bindings.failoverPlot, [null, "plot series"]);

/**
 * Resolves at once: under Node the module is already loaded. Present so that code shared
 * with browsers can `await init()` everywhere.
 */
export async function init() {}

export default init;
