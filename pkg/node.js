// Node entry of `tenure`: loads the wasm module synchronously, so a plain
// `import { FencedResource } from "tenure"` works with no top-level await.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as bindings from "./dist/tenure.js";
import { setPromClientLoader } from "./election/metrics.js";
import { addMachineFromJSON } from "./machine-json.js";
import { guardClasses } from "./guard.js";

bindings.initSync({ module: readFileSync(new URL("./dist/tenure_bg.wasm", import.meta.url)) });
// A call on a freed object throws a coded ERR_FREED error (pkg/guard.js).
guardClasses(bindings);
// LeaseCandidate, RaftNode and BullyNode read their toJSON() back (pkg/machine-json.js).
addMachineFromJSON(bindings);

// prom-client (an optional peer dependency) is loaded only when an election is given a
// registry; a missing install is reported then (ERR_PROM_CLIENT), never at import.
const require = createRequire(import.meta.url);
setPromClientLoader(() => {
  try {
    return require("prom-client");
  } catch {
    return undefined;
  }
});

export * from "./dist/tenure.js";
export * from "./election/index.js";

/**
 * Resolves at once: under Node the module is already loaded. Present so that code shared
 * with browsers can `await init()` everywhere.
 */
export async function init() {}

export default init;
