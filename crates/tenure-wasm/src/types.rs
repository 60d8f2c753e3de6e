//! TypeScript shapes of the plain objects the bindings return (STYLE.md item 13).
//!
//! One `typescript_custom_section` holds every data shape; exported methods point at these
//! names with `unchecked_return_type`, so the public `.d.ts` has no `any`. Later bindings add
//! their outputs, events and configs here (discriminated unions keyed by `type`/`accepted`).

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(typescript_custom_section)]
const TS_SHAPES: &'static str = r#"
/** A fencing token: u64 in Rust, so a bigint in 0n ..= 2n ** 64n - 1n. */
export type FencingToken = bigint;

/** The token was >= the highest seen; the resource now records it as the highest. */
export interface Accepted {
  accepted: true;
  /** The token presented, now the highest. */
  token: FencingToken;
}

/** The token was below the highest seen (DESIGN.md rule 1); nothing changed. */
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
  | "ERR_TOKEN_TYPE"
  | "ERR_TOKEN_RANGE"
  | "ERR_MILLIS_TYPE"
  | "ERR_MILLIS_RANGE"
  | "ERR_MILLIS_PRECISION"
  | "ERR_TERM_TYPE"
  | "ERR_TERM_RANGE"
  | "ERR_NODE_ID_TYPE"
  | "ERR_NODE_ID_RANGE"
  | "ERR_REQUEST_ID_TYPE"
  | "ERR_REQUEST_ID_RANGE"
  | "ERR_INDEX_TYPE"
  | "ERR_INDEX_RANGE"
  | "ERR_EPOCH_TYPE"
  | "ERR_EPOCH_RANGE"
  | "ERR_SEED_TYPE"
  | "ERR_SEED_RANGE"
  | "ERR_COMMAND_TYPE"
  | "ERR_COMMAND_RANGE"
  | "ERR_OBJECT_TYPE"
  | "ERR_ARRAY_TYPE"
  | "ERR_MISSING_KEY"
  | "ERR_UNKNOWN_KEY"
  | "ERR_VARIANT"
  | "ERR_BOOLEAN_TYPE"
  | "ERR_STRING_TYPE"
  | "ERR_INTEGER_TYPE"
  | "ERR_INTEGER_RANGE"
  | "ERR_CONFIG"
  | "ERR_NOT_LEADER"
  | "ERR_ALREADY_LEADER"
  | "ERR_TERM_EXHAUSTED"
  | "ERR_CAMPAIGN";
"#;
