// Public types of `tenure`: the generated classes and data shapes, plus `init`.
// The classes declare [Symbol.dispose] / [Symbol.asyncDispose] (`using`), so the types need the
// disposable lib whatever the project's own `lib` or `target` says.
/// <reference lib="esnext.disposable" />
export * from "./dist/tenure.js";
import type { InitInput } from "./dist/tenure.js";

/**
 * Loads the wasm module. Browsers: call (and await) it once before using the exports; later
 * calls return the same promise. Node: the module is loaded on import and this resolves at once.
 * @param input where the `.wasm` comes from; defaults to `dist/tenure_bg.wasm` beside the package.
 */
export declare function init(input?: InitInput | Promise<InitInput>): Promise<void>;
export default init;

// `fromJSON` on the machine classes (pkg/machine-json.js), merged into the generated classes.
declare module "./dist/tenure.js" {
  namespace LeaseCandidate {
    /**
     * A candidate with the config of a `toJSON()` summary (or its JSON text), as after a
     * restart: it starts as a follower. Errors: `ERR_OBJECT_TYPE` when `json` is not such a
     * summary; the constructor's errors for its config.
     */
    function fromJSON(json: string | Record<string, unknown>): LeaseCandidate;
  }
  namespace RaftNode {
    /**
     * A node with the config of a `toJSON()` summary (or its JSON text), starting at term 0
     * with an empty log: the summary holds no persistent state (`RaftNode.restart(config,
     * persisted)` restarts a node with its term, vote and log). Errors: `ERR_OBJECT_TYPE`
     * when `json` is not such a summary; the constructor's errors for its config.
     */
    function fromJSON(json: string | Record<string, unknown>): RaftNode;
  }
  namespace BullyNode {
    /**
     * A node with the config of a `toJSON()` summary (or its JSON text), starting at epoch 0.
     * Errors: `ERR_OBJECT_TYPE` when `json` is not such a summary; the constructor's errors
     * for its config.
     */
    function fromJSON(json: string | Record<string, unknown>): BullyNode;
  }
}

// The driver layer: LeaderElection, the store protocol, MemoryStore, ShardedElection.
export * from "./election/index.js";

import type { TenureErrorCode as BindingErrorCode } from "./dist/tenure.js";
import type { AdapterErrorCode, DriverErrorCode, LeadershipErrorCode, StoreErrorCode, TestingFailureCode } from "./election/index.js";

/**
 * Every `code` an error from this package carries, whichever entry threw it: the three wasm
 * modules' (the bindings' own `TenureErrorCode`: `MachineErrorCode`, `SimulationErrorCode`,
 * `tenure/search`'s `SearchErrorCode` and the token and time codes), the JavaScript layer's
 * misuse codes (`DriverErrorCode`), `LeadershipExpiredError`'s (`LeadershipErrorCode`), the
 * `error` event's (`StoreErrorCode`), the store adapters' (`AdapterErrorCode`) and the testing
 * kit's report (`TestingFailureCode`). (This extends the bindings' `TenureErrorCode`, which
 * covers only the wasm modules.)
 */
export type TenureErrorCode =
  | BindingErrorCode
  | DriverErrorCode
  | LeadershipErrorCode
  | StoreErrorCode
  | AdapterErrorCode
  | TestingFailureCode;
