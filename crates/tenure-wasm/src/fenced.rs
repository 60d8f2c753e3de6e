//! The exported `FencedResource` class: the core's [`tenure::FencedResource`] holding any JS
//! value, with `bigint` tokens checked at the boundary.

use tenure::{FencingToken, StaleToken};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::convert::{u64_from_bigint, u64_to_bigint};
use crate::error::U64Arg;
use crate::object::plain_object;

/// A resource guarded by fencing tokens (design rule 1), holding one JS value.
///
/// A write with a token `>=` the highest seen is accepted and raises the highest; a lower one
/// is rejected with `{ accepted: false, reason: "stale fencing token", presented, required }`
/// and changes nothing. `establish(token)` raises the highest without writing, as a new leader
/// does before it acts. Tokens are `bigint`s from `0n` to `2n ** 64n - 1n`; anything else throws
/// a `TypeError` (`code: "ERR_TOKEN_TYPE"`) or `RangeError` (`code: "ERR_TOKEN_RANGE"`) and
/// leaves the resource unchanged.
#[wasm_bindgen]
#[derive(Default)]
pub struct FencedResource {
    inner: tenure::FencedResource<JsValue>,
}

#[wasm_bindgen]
impl FencedResource {
    /// An empty resource: highest token `0n`, value `undefined`.
    #[wasm_bindgen(constructor)]
    pub fn new() -> FencedResource {
        FencedResource::default()
    }

    /// Writes `value` under `token`: accepted when `token >= highestToken`.
    ///
    /// Returns `{ accepted: true, token }` or `{ accepted: false, reason: "stale fencing
    /// token", presented, required }`. Throws `TypeError`/`RangeError` (with `code`) on a bad
    /// token.
    #[wasm_bindgen(unchecked_return_type = "FenceResult")]
    pub fn write(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "FencingToken")] token: JsValue,
        #[wasm_bindgen(unchecked_param_type = "unknown")] value: JsValue,
    ) -> Result<JsValue, JsValue> {
        let token = FencingToken(u64_from_bigint(&token, U64Arg::Token)?);
        fence_result(self.inner.write(token, value))
    }

    /// Installs `token` as the highest without writing (design rule 1; scenario S16).
    ///
    /// Returns the same shapes as `write`; establishing the current highest again is accepted.
    #[wasm_bindgen(unchecked_return_type = "FenceResult")]
    pub fn establish(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "FencingToken")] token: JsValue,
    ) -> Result<JsValue, JsValue> {
        let token = FencingToken(u64_from_bigint(&token, U64Arg::Token)?);
        fence_result(self.inner.establish(token))
    }

    /// Whether a write with `token` would be accepted now, without changing anything.
    #[wasm_bindgen(unchecked_return_type = "FenceResult")]
    pub fn check(
        &self,
        #[wasm_bindgen(unchecked_param_type = "FencingToken")] token: JsValue,
    ) -> Result<JsValue, JsValue> {
        let token = FencingToken(u64_from_bigint(&token, U64Arg::Token)?);
        fence_result(self.inner.check(token).map(|()| token))
    }

    /// The highest token seen through a write or `establish` (`0n` when fresh).
    #[wasm_bindgen(getter = highestToken, unchecked_return_type = "FencingToken")]
    pub fn highest_token(&self) -> JsValue {
        u64_to_bigint(self.inner.highest_token().0)
    }

    /// The last accepted value, `undefined` before the first accepted write.
    #[wasm_bindgen(getter, unchecked_return_type = "unknown")]
    pub fn value(&self) -> JsValue {
        self.inner.value().cloned().unwrap_or(JsValue::UNDEFINED)
    }
}

/// The JS shape of a fencing outcome (see `FenceResult` in [`crate::types`]).
fn fence_result(result: Result<FencingToken, StaleToken>) -> Result<JsValue, JsValue> {
    match result {
        Ok(token) => plain_object(&[
            ("accepted", JsValue::TRUE),
            ("token", u64_to_bigint(token.0)),
        ]),
        Err(StaleToken {
            presented,
            required,
        }) => plain_object(&[
            ("accepted", JsValue::FALSE),
            ("reason", crate::object::name(StaleToken::REASON)),
            ("presented", u64_to_bigint(presented.0)),
            ("required", u64_to_bigint(required.0)),
        ]),
    }
}
