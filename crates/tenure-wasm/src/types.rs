//! TypeScript shapes that no `js_union!`/`js_object!` declaration generates (convention 13):
//! the fenced resource's result, tagged by `accepted` rather than `type`, and the error codes.
//!
//! Exported methods point at these names with `unchecked_return_type`, so the public `.d.ts`
//! has no `any`. The tagged shapes are declared once in `shape.rs`'s macros beside their
//! readers and writers.

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(typescript_custom_section)]
const TS_SHAPES: &'static str = r#"
// The simulator's codes are declared by the `tenure/sim` module and the search's by
// `tenure/search`; a type-only import loads nothing.
import type { SimulationErrorCode } from "./tenure_sim.js";
import type { SearchErrorCode } from "./tenure_search.js";

/** A fencing token: an unsigned 64-bit integer, so a bigint from 0n to 2n ** 64n - 1n. */
export type FencingToken = bigint;

/** The token was >= the highest seen; the resource now records it as the highest. */
export interface Accepted {
  accepted: true;
  /** The token presented, now the highest. */
  token: FencingToken;
}

/** The token was below the highest seen (design rule 1); nothing changed. */
export interface StaleTokenRejection {
  accepted: false;
  reason: "stale fencing token";
  /** The token presented. */
  presented: FencingToken;
  /** The highest token seen; a write needs at least this. */
  required: FencingToken;
}

/** Outcome of FencedResource.write / establish / check. */
export type FenceResult = Accepted | StaleTokenRejection;

/** Codes of the TypeError/RangeError objects that Tenure throws on misuse. */
export type TenureErrorCode =
  | MachineErrorCode
  | "ERR_TOKEN_TYPE"
  | "ERR_TOKEN_RANGE"
  | "ERR_MILLIS_TYPE"
  | "ERR_MILLIS_RANGE"
  | SimulationErrorCode
  | SearchErrorCode;
"#;
