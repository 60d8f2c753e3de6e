// Types the store adapters share: the store protocol (from the driver's declarations), the
// fencing result (the wasm FencedResource's), and the adapters' own failure.
import type { FenceResult } from "../dist/tenure.js";
import type { Store, StoreProtocolRequest, StoreReply } from "../election/index.js";

export type { FenceResult, Store, StoreProtocolRequest, StoreReply };

/** What a fenced resource holds: the highest token seen (`0n` before any) and the last value. */
export interface FencedState {
  highestToken: bigint;
  value: string | undefined;
}

/**
 * An adapter's failure (a rejected promise): the client threw, or the server answered
 * something the adapter cannot read. LeaderElection reports it as an `error` event.
 */
export interface StoreAdapterError extends Error {
  code: "ERR_STORE" | "ERR_FENCED_ROW_MISSING";
  /** What was being done: a store request, or the fenced operation ({ type: "write", key }). */
  request: { type: string; key?: string };
  /** The client's own error, when there was one. */
  cause?: unknown;
}
