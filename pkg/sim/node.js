// Node entry of `tenure/sim`: the deterministic simulator (`Simulation`) in its own wasm
// module, loaded synchronously on import. The main entry `tenure` (the state machines) and
// `tenure/search` (Search, the failover lab) never load this module, nor this one theirs.
import { readFileSync } from "node:fs";
import * as bindings from "../dist/tenure_sim.js";
import { installSnapshot } from "./snapshot.js";
import { guardClasses } from "../guard.js";

bindings.initSync({ module: readFileSync(new URL("../dist/tenure_sim_bg.wasm", import.meta.url)) });
// A call on a freed object throws a coded ERR_FREED error (pkg/guard.js).
// snapshot() reads the module's flat frame in JS (pkg/sim/snapshot.js).
installSnapshot(bindings.Simulation);
guardClasses(bindings, undefined, "tenure/sim");

export * from "../dist/tenure_sim.js";

/**
 * Resolves at once: under Node the module is already loaded. Present so that code shared
 * with browsers can `await init()` everywhere.
 */
export async function init() {}

export default init;
