//! The lease round trip's fast path: each wire object read or built in one JS call.
//!
//! A renew round trip (`handleTimeout`, `pollOutput`, `LeaseStore.handle`, `handleResponse`,
//! `pollOutput`) reads two objects and builds two. Read field by field from Rust, each
//! object cost some twenty boundary calls (a plain-object check, `Object.keys`, a `===` per
//! key, a load per key, three calls per `bigint`, a UTF-8 copy of the key), which was most of
//! the round trip (docs/bindings.md, "What a call costs"). Here a small JS function does the
//! whole check of one common shape and hands back its scalars; another builds an object
//! from scalars as one object literal.
//!
//! The fast path only ever accepts: a value it does not take exactly as the strict reader
//! would (another variant, a missing, extra or `undefined` key, a wrong type, a `bigint`
//! out of range, a long string, a getter or trap that throws, anything not a plain object)
//! makes it answer "not mine", and the caller reads the value again with the strict reader
//! of [`crate::lease_message`], which gives the error with its code, class and path. So
//! every refusal is the strict reader's, unchanged; a getter that throws runs twice.

use tenure::lease::{
    LeaseKey, RequestId, SessionId, StoreOp, StoreRequest, StoreResponse, StoreResult,
};
use tenure::time::ms_to_us;
use tenure::{Duration, FencingToken, Instant, NodeId};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::convert::{duration_to_millis, instant_from_millis};
use crate::error::Name;

// The string limit is `crate::limits::MAX_STRING` (65,536 UTF-16 code units); a key over it
// is left to the strict reader, which refuses it with ERR_TOO_LARGE.
#[wasm_bindgen(inline_js = r#"
const MAX_U64 = 0xffffffffffffffffn;
const MAX_STRING = 65536;
const u64 = [0n, 0n, 0n, 0n];
let ms = 0;
let key;

function plain(v) {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const p = Object.getPrototypeOf(v);
  return p === null || Object.getPrototypeOf(p) === null;
}
const big = (v) => typeof v === "bigint" && v >= 0n && v <= MAX_U64;
const str = (v) => typeof v === "string" && v.length <= MAX_STRING;
const num = (v) => typeof v === "number";

// The keys of `v` are exactly `known`: each enumerable string key is one of them, and there
// are as many, so every known key is present. `for...in` walks the engine's cached key list
// of the object's shape instead of allocating `Object.keys(v)`; it also lists inherited
// enumerable keys (an enumerable property added to `Object.prototype`), which then fail the
// check, so such a value goes to the strict reader, as anything unusual does.
function exactly(v, known) {
  let n = 0;
  for (const k in v) {
    if (!known.includes(k)) return false;
    n++;
  }
  return n === known.length;
}
const ACQUIRE = ["type", "id", "key", "holder", "session", "ttl_ms"];
const RENEW = ["type", "id", "key", "holder", "session", "token", "ttl_ms"];
const RELEASE = ["type", "id", "key", "holder", "session", "token"];
const GRANT = ["type", "id", "key", "token", "ttl_ms"];

// The tag index plus 8 when `key === expected`, or -1: "not mine". A new key with a lone
// surrogate is the strict reader's, which refuses it in the caller's words (`as_string`
// would read it as U+FFFD); without `isWellFormed`, any surrogate sends it there.
function found(tag, k, expected) {
  key = k;
  if (k === expected) return tag + 8;
  return (k.isWellFormed ? k.isWellFormed() : !/[\uD800-\uDFFF]/.test(k)) ? tag : -1;
}

export function fastMillis(v) {
  return typeof v === "number" && v >= 0 ? v : -1;
}

// StoreRequest: Acquire 0, Renew 1, Release 2.
export function fastReadRequest(v, expected) {
  try {
    if (!plain(v)) return -1;
    const type = v.type;
    const tag = type === "Renew" ? 1 : type === "Acquire" ? 0 : type === "Release" ? 2 : -1;
    if (tag < 0 || !exactly(v, tag === 1 ? RENEW : tag === 0 ? ACQUIRE : RELEASE)) return -1;
    const id = v.id, k = v.key, holder = v.holder, session = v.session;
    if (!big(id) || !str(k) || !big(holder) || !big(session)) return -1;
    u64[0] = id; u64[1] = holder; u64[2] = session;
    if (tag !== 0) {
      const token = v.token;
      if (!big(token)) return -1;
      u64[3] = token;
    }
    if (tag !== 2) {
      const ttl = v.ttl_ms;
      if (!num(ttl)) return -1;
      ms = ttl;
    }
    return found(tag, k, expected);
  } catch {
    return -1;
  }
}

// StoreResponse: Granted 0, Renewed 2 (the other variants take the strict reader).
export function fastReadResponse(v, expected) {
  try {
    if (!plain(v)) return -1;
    const type = v.type;
    const tag = type === "Renewed" ? 2 : type === "Granted" ? 0 : -1;
    if (tag < 0 || !exactly(v, GRANT)) return -1;
    const id = v.id, k = v.key, token = v.token, ttl = v.ttl_ms;
    if (!big(id) || !str(k) || !big(token) || !num(ttl)) return -1;
    u64[0] = id; u64[1] = token; ms = ttl;
    return found(tag, k, expected);
  } catch {
    return -1;
  }
}

// The index of the first lone UTF-16 surrogate of `s`, or -1 (crate::js::lone_surrogate).
export function loneSurrogate(s) {
  const m = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(s);
  return m ? m.index : -1;
}

export function fastU64(i) { return u64[i]; }
export function fastMs() { return ms; }
export function fastKey() { const k = key; key = undefined; return k; }

export function fastSendAcquire(id, key, holder, session, ttl_ms) {
  return { type: "Send", request: { type: "Acquire", id, key, holder, session, ttl_ms } };
}
export function fastSendRenew(id, key, holder, session, token, ttl_ms) {
  return { type: "Send", request: { type: "Renew", id, key, holder, session, token, ttl_ms } };
}
export function fastSendRelease(id, key, holder, session, token) {
  return { type: "Send", request: { type: "Release", id, key, holder, session, token } };
}
export function fastGranted(id, key, token, ttl_ms) {
  return { type: "Granted", id, key, token, ttl_ms };
}
export function fastRenewed(id, key, token, ttl_ms) {
  return { type: "Renewed", id, key, token, ttl_ms };
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = fastMillis)]
    fn fast_millis(value: &JsValue) -> f64;
    /// The index of the first lone UTF-16 surrogate of the string `s`, or -1.
    #[wasm_bindgen(js_name = loneSurrogate)]
    pub(crate) fn lone_surrogate_js(s: &JsValue) -> i32;
    #[wasm_bindgen(js_name = fastReadRequest)]
    fn fast_read_request(value: &JsValue, expected: &JsValue) -> i32;
    #[wasm_bindgen(js_name = fastReadResponse)]
    fn fast_read_response(value: &JsValue, expected: &JsValue) -> i32;
    #[wasm_bindgen(js_name = fastU64)]
    fn fast_u64(index: u32) -> u64;
    #[wasm_bindgen(js_name = fastMs)]
    fn fast_ms() -> f64;
    #[wasm_bindgen(js_name = fastKey)]
    fn fast_key() -> JsValue;
    #[wasm_bindgen(js_name = fastSendAcquire)]
    fn send_acquire(id: u64, key: &JsValue, holder: u64, session: u64, ttl_ms: f64) -> JsValue;
    #[wasm_bindgen(js_name = fastSendRenew)]
    fn send_renew(
        id: u64,
        key: &JsValue,
        holder: u64,
        session: u64,
        token: u64,
        ttl_ms: f64,
    ) -> JsValue;
    #[wasm_bindgen(js_name = fastSendRelease)]
    fn send_release(id: u64, key: &JsValue, holder: u64, session: u64, token: u64) -> JsValue;
    #[wasm_bindgen(js_name = fastGranted)]
    fn granted(id: u64, key: &JsValue, token: u64, ttl_ms: f64) -> JsValue;
    #[wasm_bindgen(js_name = fastRenewed)]
    fn renewed(id: u64, key: &JsValue, token: u64, ttl_ms: f64) -> JsValue;
}

/// A lease key as a JS string and as Rust, kept from one call to the next so that the key
/// of every message (nearly always the same one) is neither copied in nor made again.
/// It also keeps the last request and response read, whose fields the next fast read
/// overwrites in place: a read then allocates no copy of the key.
pub(crate) struct KeyCache {
    js: JsValue,
    key: LeaseKey,
    request: Option<StoreRequest>,
    response: Option<StoreResponse>,
}

impl KeyCache {
    /// The cache holding `key`.
    pub(crate) fn new(key: &LeaseKey) -> KeyCache {
        KeyCache {
            js: JsValue::from_str(&key.0),
            key: key.clone(),
            request: None,
            response: None,
        }
    }

    /// Calls `f` with the JS string of `key`: the cached one, borrowed, when it is the cached
    /// key (a clone would take and free a slot of the module's externref table per call).
    fn with_js<R>(&self, key: &LeaseKey, f: impl FnOnce(&JsValue) -> R) -> R {
        if *key == self.key {
            f(&self.js)
        } else {
            f(&JsValue::from_str(&key.0))
        }
    }

    /// Makes the key the last fast read found the cached one: it is already unless
    /// `matched` is false. `None` if it is not a string (cannot happen: the read checked it).
    fn refresh(&mut self, matched: bool) -> Option<()> {
        if !matched {
            let js = fast_key();
            let key = LeaseKey(js.as_string()?);
            self.js = js;
            self.key = key;
        }
        Some(())
    }
}

/// `slot`'s key made the cached `key` (a copy only when it differs).
fn set_key(slot: &mut LeaseKey, key: &LeaseKey) {
    if slot != key {
        slot.clone_from(key);
    }
}

/// A time argument in ms (`now_ms`): the common case in one call, else the strict reader
/// with its error.
pub(crate) fn instant(value: &JsValue, arg: &'static str) -> Result<Instant, JsValue> {
    let ms = fast_millis(value);
    if ms >= 0.0
        && let Ok(us) = ms_to_us(ms)
    {
        return Ok(Instant::from_micros(us));
    }
    Ok(instant_from_millis(value, Name::Borrowed(arg))?)
}

/// A duration read by a fast read, in whole microseconds; `None` leaves it to the strict
/// reader (which names the field in its error).
fn duration() -> Option<Duration> {
    ms_to_us(fast_ms()).ok().map(Duration::from_micros)
}

/// A `StoreRequest` read in one call (into the cache's last request), or `None`: read it
/// with the strict reader.
pub(crate) fn read_request<'c>(
    value: &JsValue,
    cache: &'c mut KeyCache,
) -> Option<&'c StoreRequest> {
    let code = fast_read_request(value, &cache.js);
    if code < 0 {
        return None;
    }
    let op = match code & 7 {
        0 => StoreOp::Acquire { ttl: duration()? },
        1 => StoreOp::Renew {
            token: FencingToken(fast_u64(3)),
            ttl: duration()?,
        },
        _ => StoreOp::Release {
            token: FencingToken(fast_u64(3)),
        },
    };
    cache.refresh(code & 8 != 0)?;
    let (id, holder, session) = (
        RequestId(fast_u64(0)),
        NodeId(fast_u64(1)),
        SessionId(fast_u64(2)),
    );
    let key = &cache.key;
    let request = cache.request.get_or_insert_with(|| StoreRequest {
        id,
        key: key.clone(),
        holder,
        session,
        op,
    });
    set_key(&mut request.key, key);
    (request.id, request.holder, request.session, request.op) = (id, holder, session, op);
    Some(request)
}

/// A `StoreResponse` read in one call (`Granted` and `Renewed`, into the cache's last
/// response), or `None`: read it with the strict reader.
pub(crate) fn read_response<'c>(
    value: &JsValue,
    cache: &'c mut KeyCache,
) -> Option<&'c StoreResponse> {
    let code = fast_read_response(value, &cache.js);
    if code < 0 {
        return None;
    }
    let token = FencingToken(fast_u64(1));
    let ttl = duration()?;
    let result = if code & 7 == 0 {
        StoreResult::Granted { token, ttl }
    } else {
        StoreResult::Renewed { token, ttl }
    };
    cache.refresh(code & 8 != 0)?;
    let id = RequestId(fast_u64(0));
    let key = &cache.key;
    let response = cache.response.get_or_insert_with(|| StoreResponse {
        id,
        key: key.clone(),
        result,
    });
    set_key(&mut response.key, key);
    (response.id, response.result) = (id, result);
    Some(response)
}

/// `{ type: "Send", request }` built in one call.
pub(crate) fn send(req: &StoreRequest, cache: &KeyCache) -> JsValue {
    let (id, holder, session) = (req.id.0, req.holder.0, req.session.0);
    cache.with_js(&req.key, |key| match req.op {
        StoreOp::Acquire { ttl } => send_acquire(id, key, holder, session, duration_to_millis(ttl)),
        StoreOp::Renew { token, ttl } => {
            send_renew(id, key, holder, session, token.0, duration_to_millis(ttl))
        }
        StoreOp::Release { token } => send_release(id, key, holder, session, token.0),
    })
}

/// A response builder: `(id, key, token, ttl_ms)` to the JS object.
type Build = fn(u64, &JsValue, u64, f64) -> JsValue;

/// A `Granted` or `Renewed` response built in one call; `None` for the other variants.
pub(crate) fn response(resp: &StoreResponse, cache: &KeyCache) -> Option<JsValue> {
    let (token, ttl, build): (_, _, Build) = match resp.result {
        StoreResult::Granted { token, ttl } => (token, ttl, granted),
        StoreResult::Renewed { token, ttl } => (token, ttl, renewed),
        _ => return None,
    };
    let id = resp.id.0;
    Some(cache.with_js(&resp.key, |key| {
        build(id, key, token.0, duration_to_millis(ttl))
    }))
}
