//! The lease wire shapes in JS: [`StoreRequest`] and [`StoreResponse`] as flat plain objects
//! with a `type` discriminant, shared by the `LeaseStore` and `LeaseCandidate` bindings.
//!
//! The core's `{ id, key, holder, session, op: Acquire { ttl } }` becomes
//! `{ type: "Acquire", id, key, holder, session, ttl_ms }`: ids, sessions and tokens are
//! `bigint`, durations `number` milliseconds. Reading is strict (unknown keys throw), so a
//! request the caller built by hand with a typo fails loudly instead of being half-read.
//! What the store contract lets an answer omit (design rule 9) may be absent or `null`:
//! `Held.holder` and `Held.remaining_ms`.

use tenure::lease::{LeaseKey, RejectReason, StoreOp, StoreRequest, StoreResponse, StoreResult};
use tenure::{Duration, NodeId};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::convert::{duration_to_millis, u64_to_bigint};
use crate::error::U64Arg;
use crate::read::Fields;
use crate::shape::{big, bigint, js_union};

#[wasm_bindgen(typescript_custom_section)]
const TS_LEASE_MESSAGES: &'static str = r#"
/** A node id (Raft, Bully, lease holder): an unsigned 64-bit integer, so a bigint from 0n to 2n ** 64n - 1n. */
export type NodeId = bigint;
/** A lease request id, chosen by the candidate and echoed by the store. */
export type RequestId = bigint;
/**
 * A contender instance's session, u64 (a bigint): each LeaseCandidate draws its own from its
 * seed. A lease belongs to (holder, session), so two instances configured with the same
 * holder id never share one (design rule 8). Opaque: stores compare it, nothing more.
 */
export type SessionId = bigint;

/**
 * Why the store refused a Renew or Release (or an Acquire once a key's tokens ran out);
 * "Unknown" when the store cannot say (design rule 9).
 */
export type RejectReason = "NotHolder" | "TokenMismatch" | "Expired" | "TokensExhausted" | "Unknown";
"#;

const REJECT_REASONS: &[&str] = &[
    "NotHolder",
    "TokenMismatch",
    "Expired",
    "TokensExhausted",
    "Unknown",
];

js_union!(
    /// A request from a LeaseCandidate to a LeaseStore.
    StoreRequest = StoreRequest;
    read request_from_js, REQUEST_TAGS, REQUEST_KEYS;
    write request_to_js;
    Acquire {
        id: "RequestId" = big, U64Arg::RequestId => bigint,
        key: "string" = lease_key => lease_key_js,
        holder: "NodeId" = big, U64Arg::NodeId => bigint,
        session: "SessionId" = big, U64Arg::Session => bigint,
        ttl_ms: "number" = Fields::duration => millis,
    } = (StoreRequest { id, key, holder, session, op: StoreOp::Acquire { ttl: ttl_ms } })
    Renew {
        id: "RequestId" = big, U64Arg::RequestId => bigint,
        key: "string" = lease_key => lease_key_js,
        holder: "NodeId" = big, U64Arg::NodeId => bigint,
        session: "SessionId" = big, U64Arg::Session => bigint,
        token: "FencingToken" = big, U64Arg::Token => bigint,
        ttl_ms: "number" = Fields::duration => millis,
    } = (StoreRequest { id, key, holder, session, op: StoreOp::Renew { token, ttl: ttl_ms } })
    Release {
        id: "RequestId" = big, U64Arg::RequestId => bigint,
        key: "string" = lease_key => lease_key_js,
        holder: "NodeId" = big, U64Arg::NodeId => bigint,
        session: "SessionId" = big, U64Arg::Session => bigint,
        token: "FencingToken" = big, U64Arg::Token => bigint,
    } = (StoreRequest { id, key, holder, session, op: StoreOp::Release { token } })
);

js_union!(
    /// The store's answer to one StoreRequest; `id` and `key` are echoed. `ttl_ms` of Granted and
    /// Renewed is the ttl the store recorded, which the candidate believes (design rule 9).
    /// `Held.holder` and `Held.remaining_ms` may be absent or null when the store cannot say; a
    /// `holder` equal to the requester's own id means another session claims that id (rule 8).
    StoreResponse = StoreResponse;
    read response_from_js, RESPONSE_TAGS, RESPONSE_KEYS;
    write response_to_js;
    Granted {
        id: "RequestId" = big, U64Arg::RequestId => bigint,
        key: "string" = lease_key => lease_key_js,
        token: "FencingToken" = big, U64Arg::Token => bigint,
        ttl_ms: "number" = Fields::duration => millis,
    } = (StoreResponse { id, key, result: StoreResult::Granted { token, ttl: ttl_ms } })
    Held {
        id: "RequestId" = big, U64Arg::RequestId => bigint,
        key: "string" = lease_key => lease_key_js,
        holder: optional "NodeId | null" = opt_node => opt_node_js,
        remaining_ms: optional "number | null" = Fields::opt_duration => opt_millis,
    } = (StoreResponse { id, key, result: StoreResult::Held { holder, remaining: remaining_ms } })
    Renewed {
        id: "RequestId" = big, U64Arg::RequestId => bigint,
        key: "string" = lease_key => lease_key_js,
        token: "FencingToken" = big, U64Arg::Token => bigint,
        ttl_ms: "number" = Fields::duration => millis,
    } = (StoreResponse { id, key, result: StoreResult::Renewed { token, ttl: ttl_ms } })
    Released {
        id: "RequestId" = big, U64Arg::RequestId => bigint,
        key: "string" = lease_key => lease_key_js,
    } = (StoreResponse { id, key, result: StoreResult::Released })
    Rejected {
        id: "RequestId" = big, U64Arg::RequestId => bigint,
        key: "string" = lease_key => lease_key_js,
        reason: "RejectReason" = reject_reason => reject_reason_js,
    } = (StoreResponse { id, key, result: StoreResult::Rejected { reason } })
);

/// A lease key field (a string within the length limit).
fn lease_key(f: &Fields, key: &'static str) -> Result<LeaseKey, JsValue> {
    Ok(LeaseKey(f.string(key)?))
}

/// A lease key as a JS string.
fn lease_key_js(key: &LeaseKey) -> Result<JsValue, JsValue> {
    Ok(JsValue::from_str(&key.0))
}

/// A duration as a number of milliseconds.
fn millis(d: &Duration) -> Result<JsValue, JsValue> {
    Ok(duration_to_millis(*d).into())
}

/// A holder that may be absent or `null`.
fn opt_node(f: &Fields, key: &'static str) -> Result<Option<NodeId>, JsValue> {
    Ok(f.opt_u64(key, U64Arg::NodeId)?.map(NodeId))
}

/// A holder the store may not know: left out when unknown.
#[allow(clippy::ref_option)] // The writers all take their field by reference.
fn opt_node_js(holder: &Option<NodeId>) -> Result<Option<JsValue>, JsValue> {
    Ok(holder.map(|h| u64_to_bigint(h.0)))
}

/// A remaining time the store may not know: left out when unknown.
#[allow(clippy::ref_option)]
fn opt_millis(d: &Option<Duration>) -> Result<Option<JsValue>, JsValue> {
    Ok(d.map(|d| duration_to_millis(d).into()))
}

/// A `RejectReason` field (one of its names).
fn reject_reason(f: &Fields, key: &'static str) -> Result<RejectReason, JsValue> {
    Ok(match f.variant(key, REJECT_REASONS)? {
        0 => RejectReason::NotHolder,
        1 => RejectReason::TokenMismatch,
        2 => RejectReason::Expired,
        3 => RejectReason::TokensExhausted,
        _ => RejectReason::Unknown,
    })
}

/// The JS name of a [`RejectReason`]: its variant name (`"NotHolder"`).
fn reject_reason_js(reason: &RejectReason) -> Result<JsValue, JsValue> {
    // The enum is `#[non_exhaustive]`, so the Debug name (a unit variant's name) also
    // covers reasons added to the core later.
    Ok(JsValue::from_str(&format!("{reason:?}")))
}
