// Browser (and default) entry of `tenure/sim`: call `await init()` once before using any
// export. It fetches `dist/tenure_sim_bg.wasm` (the simulator's module), never the machines'
// `dist/tenure_bg.wasm`. Until then every class throws ERR_NOT_INITIALIZED; a call on a freed
// object throws ERR_FREED (pkg/guard.js).
import wasmInit, * as bindings from "../dist/tenure_sim.js";
import { installSnapshot } from "./snapshot.js";
import { guardClasses, guardConstructor, wasmLoader } from "../guard.js";

export * from "../dist/tenure_sim.js";

const loader = wasmLoader(wasmInit, bindings);
const isReady = loader.isReady;
// snapshot() reads the module's flat frame in JS (pkg/sim/snapshot.js).
installSnapshot(bindings.Simulation);
guardClasses(bindings, isReady, "tenure/sim");

// Constructors cannot be patched in place: this name shadows the star export above.
export const Simulation = guardConstructor(bindings.Simulation, isReady, "tenure/sim");

/**
 * Fetches and instantiates the simulator's wasm module (once; later calls return the same
 * promise). `input` overrides where the `.wasm` comes from (a URL, a Response, bytes or a
 * module); by default it is `dist/tenure_sim_bg.wasm` inside the package.
 */
export const init = loader.init;

/** Instantiates the simulator's wasm module synchronously from its bytes or a compiled module. */
export const initSync = loader.initSync;

export default init;
