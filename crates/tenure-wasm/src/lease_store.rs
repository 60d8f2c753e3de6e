//! The exported `LeaseStore` class: the core's [`tenure::LeaseStore`] (a consensus-backed
//! coordination store as a pure state machine, design rules 2-3) driven from JS.

use tenure::lease::{LeaseKey, LeaseRecord};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::convert::{instant_from_millis, instant_to_millis, u64_to_bigint};
use crate::error::{BindingError, describe};
use crate::lease_fast::{self, KeyCache};
use crate::lease_message::{request_from_js, response_to_js};
use crate::object::plain_object;

#[wasm_bindgen(typescript_custom_section)]
const TS_LEASE_STORE: &'static str = r#"
/** The valid holder of a key at the store: who, under which token, until when (store clock, ms). */
export interface LeaseHolder {
  holder: NodeId;
  token: FencingToken;
  expires_at_ms: number;
}

/** The lease last granted for a key, valid or not (store clock, ms). */
export interface LeaseRecord {
  holder: NodeId;
  /** The holder's session: the lease belongs to (holder, session) (design rule 8). */
  session: SessionId;
  token: FencingToken;
  /** The TTL recorded at the last grant or renewal (design rule 3). */
  ttl_ms: number;
  /** Valid while the store's now < expires_at_ms and not released. */
  expires_at_ms: number;
  released: boolean;
}
"#;

/// A coordination store holding one lease per key ("SET NX PX + INCR"), as a pure state
/// machine you drive: `handle(now_ms, request)` returns the `StoreResponse`, or `undefined`
/// while the store is unavailable (an outage: the request is lost and nothing changes).
///
/// Rules (docs/design.md 2-3, 8): tokens grow by one on every new grant, never on renewal, and
/// are never reused; expiry is judged on the store's own clock (the `now_ms` you pass, clamped
/// when it goes backwards) with the TTL recorded with the lease; a lease belongs to the
/// request's (holder, session), so another session under the same holder id is `Held` out.
#[wasm_bindgen]
pub struct LeaseStore {
    inner: tenure::LeaseStore,
    /// The key of the last request, in JS and in Rust (`lease_fast`).
    key: KeyCache,
}

impl Default for LeaseStore {
    fn default() -> LeaseStore {
        LeaseStore::new()
    }
}

#[wasm_bindgen]
impl LeaseStore {
    /// An empty, available store.
    #[wasm_bindgen(constructor)]
    pub fn new() -> LeaseStore {
        LeaseStore {
            inner: tenure::LeaseStore::default(),
            key: KeyCache::new(&LeaseKey::default()),
        }
    }

    /// Handles one request at store time `now_ms` and returns the response, or `undefined`
    /// during an outage. Throws `TypeError`/`RangeError` (with `code`) on a malformed request
    /// or time, changing nothing.
    #[wasm_bindgen(unchecked_return_type = "StoreResponse | undefined")]
    pub fn handle(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] now_ms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "StoreRequest")] request: JsValue,
    ) -> Result<JsValue, JsValue> {
        let now = lease_fast::instant(&now_ms, "now_ms")?;
        let strict;
        let request = match lease_fast::read_request(&request, &mut self.key) {
            Some(request) => request,
            None => {
                strict = request_from_js(&request, "request")?;
                &strict
            }
        };
        match self.inner.handle(now, request) {
            Some(response) => match lease_fast::response(&response, &self.key) {
                Some(js) => Ok(js),
                None => response_to_js(&response),
            },
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Whether the store answers requests (`true` unless `setAvailable(false)`).
    #[wasm_bindgen(getter)]
    pub fn available(&self) -> bool {
        self.inner.is_available()
    }

    /// Brings the store up (`true`) or down (`false`: an outage, `handle` answers nothing).
    #[wasm_bindgen(js_name = setAvailable)]
    pub fn set_available(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "boolean")] available: JsValue,
    ) -> Result<(), JsValue> {
        let available = available
            .as_bool()
            .ok_or_else(|| BindingError::NotBoolean {
                arg: "available".into(),
                got: describe(&available),
            })?;
        self.inner.set_available(available);
        Ok(())
    }

    /// The valid holder of `key` at store time `now_ms` (default: the latest time seen;
    /// earlier times count as the latest), or `undefined`.
    #[wasm_bindgen(unchecked_return_type = "LeaseHolder | undefined")]
    pub fn holder(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] now_ms: JsValue,
    ) -> Result<JsValue, JsValue> {
        let key = key_arg(&key)?;
        let now = if now_ms.is_undefined() {
            self.inner.now()
        } else {
            instant_from_millis(&now_ms, "now_ms")?
        };
        match self.inner.holder(&key, now) {
            Some((holder, token, expires_at)) => plain_object(&[
                ("holder", u64_to_bigint(holder.0)),
                ("token", u64_to_bigint(token.0)),
                ("expires_at_ms", instant_to_millis(expires_at).into()),
            ]),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The last token issued for `key`, `undefined` before its first grant.
    #[wasm_bindgen(js_name = lastToken, unchecked_return_type = "FencingToken | undefined")]
    pub fn last_token(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
    ) -> Result<JsValue, JsValue> {
        let key = key_arg(&key)?;
        Ok(self
            .inner
            .last_token(&key)
            .map_or(JsValue::UNDEFINED, |t| u64_to_bigint(t.0)))
    }

    /// The lease last granted for `key`, valid or not, `undefined` before its first grant.
    #[wasm_bindgen(unchecked_return_type = "LeaseRecord | undefined")]
    pub fn lease(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] key: JsValue,
    ) -> Result<JsValue, JsValue> {
        let key = key_arg(&key)?;
        match self.inner.lease(&key) {
            Some(record) => record_to_js(&record),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Every key the store has seen, in order.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn keys(&self) -> JsValue {
        let keys = js_sys::Array::new();
        for key in self.inner.keys() {
            keys.push(&JsValue::from_str(&key.0));
        }
        keys.into()
    }

    /// The latest store-clock reading seen, in ms.
    #[wasm_bindgen(getter)]
    pub fn now(&self) -> f64 {
        instant_to_millis(self.inner.now())
    }
}

/// A `key` argument: a string.
fn key_arg(key: &JsValue) -> Result<LeaseKey, BindingError> {
    crate::read::bounded(key, "key".into()).map(LeaseKey)
}

/// A [`LeaseRecord`] as a JS object.
fn record_to_js(record: &LeaseRecord) -> Result<JsValue, JsValue> {
    plain_object(&[
        ("holder", u64_to_bigint(record.holder.0)),
        ("session", u64_to_bigint(record.session.0)),
        ("token", u64_to_bigint(record.token.0)),
        (
            "ttl_ms",
            crate::convert::duration_to_millis(record.ttl).into(),
        ),
        ("expires_at_ms", instant_to_millis(record.expires_at).into()),
        ("released", record.released.into()),
    ])
}
