// Node entry of `tenure`: loads the wasm module synchronously, so a plain
// `import { FencedResource } from "tenure"` works with no top-level await.
import { readFileSync } from "node:fs";
import * as bindings from "./dist/tenure.js";
import { guardClasses } from "./guard.js";

bindings.initSync({ module: readFileSync(new URL("./dist/tenure_bg.wasm", import.meta.url)) });
// A call on a freed object throws a coded ERR_FREED error (pkg/guard.js).
guardClasses(bindings);

export * from "./dist/tenure.js";

/**
 * Resolves at once: under Node the module is already loaded. Present so that code shared
 * with browsers can `await init()` everywhere.
 */
export async function init() {}

export default init;
