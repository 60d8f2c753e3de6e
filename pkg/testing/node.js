// Node entry of `tenure/testing`: loads the wasm module (through the package's Node entry)
// before the kit uses LeaseStore.
import "../node.js";

export * from "./index.js";
