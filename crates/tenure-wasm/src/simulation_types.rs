//! TypeScript shapes of the `Simulation` class's inputs and outputs (convention 13).
//!
//! The data shapes (scenarios with their per-algorithm `config`, faults, snapshots, trace
//! events, violations, metrics) are generated from the simulator's own serde types into
//! `simulation_shapes.d.ts` (tests/sim_shapes.rs fails when it is stale). Written here are
//! only the shapes with no serde type of their own: the label unions, `Simulation.message`'s
//! flattened payload, the `eventsSince` page and the error codes.

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(typescript_custom_section)]
const TS_SIMULATION_SHAPES: &'static str = include_str!("simulation_shapes.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const TS_SIMULATION: &'static str = r#"
/** Timer kinds a process can wait on. */
export type TimerKind =
  | "LeaderLease"
  | "Start"
  | "Election"
  | "Heartbeat"
  | "CheckQuorum"
  | "FailureDetector"
  | "AwaitAnswer"
  | "AwaitCoordinator"
  | "Retry"
  | "Renew"
  | "RequestTimeout"
  | "LeaseDeadline";

/** Message kinds on the simulated network. */
export type MessageKind =
  | "PreVote"
  | "RequestVote"
  | "PreVoteResponse"
  | "RequestVoteResponse"
  | "Heartbeat"
  | "AppendEntries"
  | "AppendEntriesResponse"
  | "Election"
  | "Answer"
  | "Coordinator"
  | "Acquire"
  | "Renew"
  | "Release"
  | "Granted"
  | "Held"
  | "Renewed"
  | "Released"
  | "Rejected"
  | "Establish"
  | "Established"
  | "Write"
  | "WriteResult";

/** One message on the wire with every field (Simulation.message). */
export interface MessageDetail extends InFlightMessage {
  /**
   * The payload flattened to name: value pairs (term, prev_log_index, op.token, ...); lists
   * as JSON text, integers above 2^53 - 1 as decimal strings, durations in microseconds.
   */
  fields: Record<string, number | string | boolean | null>;
}

/** What Simulation.eventsSince returns. */
export interface EventsPage {
  /** Events with seq >= the cursor still in the bounded log (the last 4096), in order. */
  events: TraceEvent[];
  /** Pass this next time. */
  cursor: number;
  /** Events from the cursor on that had already left the log. */
  missed: number;
}

/** Codes of the errors Simulation throws (TypeError or RangeError). */
export type SimulationErrorCode =
  | "ERR_SCENARIO_TYPE"
  | "ERR_SCENARIO_RANGE"
  | "ERR_FAULT_TYPE"
  | "ERR_FAULT_RANGE"
  | "ERR_UNKNOWN_KEY"
  | "ERR_CURSOR_TYPE"
  | "ERR_CURSOR_RANGE"
  /** Scenario JSON text names one key twice in an object. */
  | "ERR_DUPLICATE_KEY"
  /** Simulation.message got an id that is not a non-negative safe integer. */
  | "ERR_MESSAGE_ID"
  /** eventsSince got kinds that are not an array of strings. */
  | "ERR_KINDS_TYPE"
  /** eventsSince got a kind that names no event. */
  | "ERR_KINDS_RANGE"
  /** A message storm stopped the world (its queue passed the bound); it runs no further. */
  | "ERR_STORM"
  /** A time argument (runUntil, step...) is not a number of milliseconds. */
  | "ERR_MILLIS_TYPE"
  /** A time argument is negative, NaN, Infinity or past 2 ** 64 microseconds. */
  | "ERR_MILLIS_RANGE"
  /** A time argument is finer than 1 microsecond (0.001 ms). */
  | "ERR_MILLIS_PRECISION"
  /** A list, string or object of the input is past its limit (pkg/README.md, "Limits"). */
  | "ERR_TOO_LARGE"
  /** A scenario or fault value that should be a plain object is not (a Map, a Date). */
  | "ERR_OBJECT_TYPE"
  /** A list is an array-like whose length is not a valid array length (a Proxy's). */
  | "ERR_ARRAY_TYPE"
  /** The input is a revoked Proxy. */
  | "ERR_REVOKED_PROXY";
"#;
