//! The lease wire shapes in JS: [`StoreRequest`] and [`StoreResponse`] as flat plain objects
//! with a `type` discriminant, shared by the `LeaseStore` and `LeaseCandidate` bindings.
//!
//! The core's `{ id, key, holder, session, op: Acquire { ttl } }` becomes
//! `{ type: "Acquire", id, key, holder, session, ttl_ms }`: ids, sessions and tokens are
//! `bigint`, durations `number` milliseconds. Reading is strict (unknown keys throw), so a
//! request the caller built by hand with a typo fails loudly instead of being half-read.
//! What the store contract lets an answer omit (design rule 9) may be absent or `null`:
//! `Held.holder` and `Held.remaining_ms`.

use tenure::lease::{
    LeaseKey, RejectReason, RequestId, SessionId, StoreOp, StoreRequest, StoreResponse, StoreResult,
};
use tenure::{FencingToken, NodeId};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::convert::{duration_to_millis, u64_to_bigint};
use crate::error::{Name, U64Arg};
use crate::object::plain_object;
use crate::read::Fields;

#[wasm_bindgen(typescript_custom_section)]
const TS_LEASE_MESSAGES: &'static str = r#"
/** A node id (Raft, Bully, lease holder): u64, so a bigint in 0n ..= 2n ** 64n - 1n. */
export type NodeId = bigint;
/** A lease request id, chosen by the candidate and echoed by the store. */
export type RequestId = bigint;
/**
 * A contender instance's session, u64 (a bigint): each LeaseCandidate draws its own from its
 * seed. A lease belongs to (holder, session), so two instances configured with the same
 * holder id never share one (design rule 8). Opaque: stores compare it, nothing more.
 */
export type SessionId = bigint;

/** A request from a LeaseCandidate to a LeaseStore. */
export type StoreRequest =
  | { type: "Acquire"; id: RequestId; key: string; holder: NodeId; session: SessionId; ttl_ms: number }
  | { type: "Renew"; id: RequestId; key: string; holder: NodeId; session: SessionId; token: FencingToken; ttl_ms: number }
  | { type: "Release"; id: RequestId; key: string; holder: NodeId; session: SessionId; token: FencingToken };

/**
 * Why the store refused a Renew or Release (or an Acquire once a key's tokens ran out);
 * "Unknown" when the store cannot say (design rule 9).
 */
export type RejectReason = "NotHolder" | "TokenMismatch" | "Expired" | "TokensExhausted" | "Unknown";

/**
 * The store's answer to one StoreRequest; `id` and `key` are echoed. `ttl_ms` of Granted and
 * Renewed is the ttl the store recorded, which the candidate believes (design rule 9).
 * `Held.holder` and `Held.remaining_ms` may be absent or null when the store cannot say; a
 * `holder` equal to the requester's own id means another session claims that id (rule 8).
 */
export type StoreResponse =
  | { type: "Granted"; id: RequestId; key: string; token: FencingToken; ttl_ms: number }
  | { type: "Held"; id: RequestId; key: string; holder?: NodeId | null; remaining_ms?: number | null }
  | { type: "Renewed"; id: RequestId; key: string; token: FencingToken; ttl_ms: number }
  | { type: "Released"; id: RequestId; key: string }
  | { type: "Rejected"; id: RequestId; key: string; reason: RejectReason };
"#;

const REQUEST_TAGS: &[&str] = &["Acquire", "Renew", "Release"];
const REQUEST_KEYS: &[&[&str]] = &[
    &["type", "id", "key", "holder", "session", "ttl_ms"],
    &["type", "id", "key", "holder", "session", "token", "ttl_ms"],
    &["type", "id", "key", "holder", "session", "token"],
];

const RESPONSE_TAGS: &[&str] = &["Granted", "Held", "Renewed", "Released", "Rejected"];
const RESPONSE_KEYS: &[&[&str]] = &[
    &["type", "id", "key", "token", "ttl_ms"],
    &["type", "id", "key", "holder", "remaining_ms"],
    &["type", "id", "key", "token", "ttl_ms"],
    &["type", "id", "key"],
    &["type", "id", "key", "reason"],
];

const REJECT_REASONS: &[&str] = &[
    "NotHolder",
    "TokenMismatch",
    "Expired",
    "TokensExhausted",
    "Unknown",
];

/// Reads a JS `StoreRequest` (named `path` in errors).
pub(crate) fn request_from_js(
    value: &JsValue,
    path: impl Into<Name>,
) -> Result<StoreRequest, JsValue> {
    let (tag, f) = Fields::tagged(value, path, REQUEST_TAGS, REQUEST_KEYS)?;
    let id = RequestId(f.u64("id", U64Arg::RequestId)?);
    let key = LeaseKey(f.string("key")?);
    let holder = NodeId(f.u64("holder", U64Arg::NodeId)?);
    let session = SessionId(f.u64("session", U64Arg::Session)?);
    let op = match tag {
        0 => StoreOp::Acquire {
            ttl: f.duration("ttl_ms")?,
        },
        1 => StoreOp::Renew {
            token: FencingToken(f.u64("token", U64Arg::Token)?),
            ttl: f.duration("ttl_ms")?,
        },
        _ => StoreOp::Release {
            token: FencingToken(f.u64("token", U64Arg::Token)?),
        },
    };
    Ok(StoreRequest {
        id,
        key,
        holder,
        session,
        op,
    })
}

/// A `StoreRequest` as a JS object.
pub(crate) fn request_to_js(req: &StoreRequest) -> Result<JsValue, JsValue> {
    let id = u64_to_bigint(req.id.0);
    let key = JsValue::from_str(&req.key.0);
    let holder = u64_to_bigint(req.holder.0);
    let session = u64_to_bigint(req.session.0);
    match req.op {
        StoreOp::Acquire { ttl } => plain_object(&[
            ("type", crate::object::name("Acquire")),
            ("id", id),
            ("key", key),
            ("holder", holder),
            ("session", session),
            ("ttl_ms", duration_to_millis(ttl).into()),
        ]),
        StoreOp::Renew { token, ttl } => plain_object(&[
            ("type", crate::object::name("Renew")),
            ("id", id),
            ("key", key),
            ("holder", holder),
            ("session", session),
            ("token", u64_to_bigint(token.0)),
            ("ttl_ms", duration_to_millis(ttl).into()),
        ]),
        StoreOp::Release { token } => plain_object(&[
            ("type", crate::object::name("Release")),
            ("id", id),
            ("key", key),
            ("holder", holder),
            ("session", session),
            ("token", u64_to_bigint(token.0)),
        ]),
    }
}

/// Reads a JS `StoreResponse` (named `path` in errors).
pub(crate) fn response_from_js(
    value: &JsValue,
    path: impl Into<Name>,
) -> Result<StoreResponse, JsValue> {
    let (tag, f) = Fields::tagged(value, path, RESPONSE_TAGS, RESPONSE_KEYS)?;
    let id = RequestId(f.u64("id", U64Arg::RequestId)?);
    let key = LeaseKey(f.string("key")?);
    let result = match tag {
        0 => StoreResult::Granted {
            token: FencingToken(f.u64("token", U64Arg::Token)?),
            ttl: f.duration("ttl_ms")?,
        },
        1 => StoreResult::Held {
            holder: f.opt_u64("holder", U64Arg::NodeId)?.map(NodeId),
            remaining: f.opt_duration("remaining_ms")?,
        },
        2 => StoreResult::Renewed {
            token: FencingToken(f.u64("token", U64Arg::Token)?),
            ttl: f.duration("ttl_ms")?,
        },
        3 => StoreResult::Released,
        _ => StoreResult::Rejected {
            reason: match f.variant("reason", REJECT_REASONS)? {
                0 => RejectReason::NotHolder,
                1 => RejectReason::TokenMismatch,
                2 => RejectReason::Expired,
                3 => RejectReason::TokensExhausted,
                _ => RejectReason::Unknown,
            },
        },
    };
    Ok(StoreResponse { id, key, result })
}

/// A `StoreResponse` as a JS object.
pub(crate) fn response_to_js(resp: &StoreResponse) -> Result<JsValue, JsValue> {
    let id = u64_to_bigint(resp.id.0);
    let key = JsValue::from_str(&resp.key.0);
    match resp.result {
        StoreResult::Granted { token, ttl } => plain_object(&[
            ("type", crate::object::name("Granted")),
            ("id", id),
            ("key", key),
            ("token", u64_to_bigint(token.0)),
            ("ttl_ms", duration_to_millis(ttl).into()),
        ]),
        StoreResult::Held { holder, remaining } => {
            // What the store did not say is left out (the shape's keys are optional).
            let mut props = vec![
                ("type", crate::object::name("Held")),
                ("id", id),
                ("key", key),
            ];
            if let Some(holder) = holder {
                props.push(("holder", u64_to_bigint(holder.0)));
            }
            if let Some(remaining) = remaining {
                props.push(("remaining_ms", duration_to_millis(remaining).into()));
            }
            plain_object(&props)
        }
        StoreResult::Renewed { token, ttl } => plain_object(&[
            ("type", crate::object::name("Renewed")),
            ("id", id),
            ("key", key),
            ("token", u64_to_bigint(token.0)),
            ("ttl_ms", duration_to_millis(ttl).into()),
        ]),
        StoreResult::Released => plain_object(&[
            ("type", crate::object::name("Released")),
            ("id", id),
            ("key", key),
        ]),
        StoreResult::Rejected { reason } => plain_object(&[
            ("type", crate::object::name("Rejected")),
            ("id", id),
            ("key", key),
            ("reason", JsValue::from_str(&reject_reason_name(reason))),
        ]),
    }
}

/// The JS name of a [`RejectReason`]: its variant name (`"NotHolder"`).
fn reject_reason_name(reason: RejectReason) -> String {
    // The enum is `#[non_exhaustive]`, so the Debug name (a unit variant's name) also
    // covers reasons added to the core later.
    format!("{reason:?}")
}
