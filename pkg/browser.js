// Browser (and default) entry of `tenure`: the state machines and the LeaderElection layer.
// Call `await init()` once before using any export: it fetches `dist/tenure_bg.wasm` only (the
// simulator is `tenure/sim`, with its own module).
// Until then every class throws a coded ERR_NOT_INITIALIZED error that says so, and a call
// on a freed object throws ERR_FREED (pkg/guard.js).
import wasmInit, * as bindings from "./dist/tenure.js";
import { addMachineFromJSON } from "./machine-json.js";
import { guardClasses, guardConstructor, wasmLoader } from "./guard.js";

export * from "./dist/tenure.js";
export * from "./election/index.js";

const loader = wasmLoader(wasmInit, bindings);
const isReady = loader.isReady;
guardClasses(bindings, isReady);
// LeaseCandidate, RaftNode and BullyNode read their toJSON() back (pkg/machine-json.js).
addMachineFromJSON(bindings);

// Constructors cannot be patched in place: these names shadow the star export above.
export const BullyNode = guardConstructor(bindings.BullyNode, isReady);
export const FencedResource = guardConstructor(bindings.FencedResource, isReady);
export const LeaseCandidate = guardConstructor(bindings.LeaseCandidate, isReady);
export const LeaseStore = guardConstructor(bindings.LeaseStore, isReady);
export const RaftNode = guardConstructor(bindings.RaftNode, isReady);

/**
 * Fetches and instantiates the wasm module (once; later calls return the same promise).
 * `input` overrides where the `.wasm` comes from (a URL, a Response, bytes or a module);
 * by default it is `dist/tenure_bg.wasm` next to this file.
 */
export const init = loader.init;

/** Instantiates the wasm module synchronously from its bytes or a compiled module. */
export const initSync = loader.initSync;

export default init;
