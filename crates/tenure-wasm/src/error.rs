//! Typed errors of the JS boundary, and their conversion into real JS error objects.
//!
//! Misuse from JavaScript (a `number` where a `bigint` token is expected, a token `>= 2^64`,
//! a negative time, ...) becomes a [`BindingError`]. Crossing into JS it turns into a genuine
//! `TypeError` or `RangeError` (so `instanceof` works), with two properties a caller can rely on:
//! `message`, which names the argument and the offending value, and `code`, a stable string
//! such as `"ERR_TOKEN_RANGE"` (convention 12; modelled on Node's own `err.code`).
//!
//! Extending it: add a variant with one doc line, give it a code in [`BindingError::code`]
//! and a class in [`BindingError::class`], and list the code in `pkg/README.md` and in the
//! `MachineErrorCode` union below (part of `TenureErrorCode`). A new `u64` quantity is a new
//! [`U64Arg`] variant with its own `ERR_<NAME>_TYPE/RANGE` codes. Errors from the core (a
//! config that fails `validate()`, a refused command) get a variant wrapping the core's
//! message plus a `From` impl, so `?` converts them. Exported methods return
//! `Result<T, JsValue>` and use `?`: `From<BindingError> for JsValue` builds the JS object.
//! Codes are API: never rename one.

use std::borrow::Cow;

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

#[wasm_bindgen(typescript_custom_section)]
const TS_MACHINE_ERROR_CODES: &'static str = r#"
/** Codes thrown by the state machines' bindings (a part of TenureErrorCode). */
export type MachineErrorCode =
  | "ERR_MILLIS_PRECISION"
  | "ERR_TERM_TYPE"
  | "ERR_TERM_RANGE"
  | "ERR_NODE_ID_TYPE"
  | "ERR_NODE_ID_RANGE"
  | "ERR_REQUEST_ID_TYPE"
  | "ERR_REQUEST_ID_RANGE"
  | "ERR_SESSION_TYPE"
  | "ERR_SESSION_RANGE"
  | "ERR_INDEX_TYPE"
  | "ERR_INDEX_RANGE"
  | "ERR_EPOCH_TYPE"
  | "ERR_EPOCH_RANGE"
  | "ERR_SEED_TYPE"
  | "ERR_SEED_RANGE"
  | "ERR_COMMAND_TYPE"
  | "ERR_COMMAND_RANGE"
  | "ERR_CONTEXT_TYPE"
  | "ERR_CONTEXT_RANGE"
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
  /** RaftNode.restart: the persisted state's log has terms that decrease or exceed its term (RangeError). */
  | "ERR_STATE"
  | "ERR_NOT_LEADER"
  | "ERR_ALREADY_LEADER"
  | "ERR_TERM_EXHAUSTED"
  | "ERR_CAMPAIGN"
  /** A list or string is longer than its documented limit (RangeError). */
  | "ERR_TOO_LARGE"
  /** An argument is a revoked Proxy (TypeError; the engine's error is its `cause`). */
  | "ERR_REVOKED_PROXY"
  /** A getter or Proxy trap of an argument threw this Error (it is rethrown as thrown). */
  | "ERR_INPUT_THREW"
  /** A method was called on an object after its free() (the package's guard). */
  | "ERR_FREED"
  /** A method or free() was called on an object while a call on it was still running, from a getter or Proxy trap of that call's argument (the package's guard). */
  | "ERR_REENTRANT"
  /** A method was called with a `this` that is not an instance of its class (TypeError; the package's guard). */
  | "ERR_THIS_TYPE"
  /** The browser entry was used before `await init()` (the package's guard). */
  | "ERR_NOT_INITIALIZED";
"#;

/// Which `u64` quantity an argument holds; it picks the argument name and the error codes.
///
/// Each quantity has its own `ERR_<NAME>_TYPE` / `ERR_<NAME>_RANGE` codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum U64Arg {
    /// A fencing token (`bigint` in JS).
    Token,
    /// A Raft term.
    Term,
    /// A node id (Raft, Bully, or a lease holder).
    NodeId,
    /// A lease store request id.
    RequestId,
    /// A lease holder's session (design rule 8).
    Session,
    /// A Raft log index.
    Index,
    /// A Bully epoch.
    Epoch,
    /// A PRNG seed.
    Seed,
    /// A Raft client command (an opaque `u64`).
    Command,
    /// The opaque `context` of a Raft AppendEntries and its response.
    Context,
}

impl U64Arg {
    /// The argument name used in messages.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            U64Arg::Token => "token",
            U64Arg::Term => "term",
            U64Arg::NodeId => "id",
            U64Arg::RequestId => "request id",
            U64Arg::Session => "session",
            U64Arg::Index => "index",
            U64Arg::Epoch => "epoch",
            U64Arg::Seed => "seed",
            U64Arg::Command => "command",
            U64Arg::Context => "context",
        }
    }

    const fn type_code(self) -> &'static str {
        match self {
            U64Arg::Token => "ERR_TOKEN_TYPE",
            U64Arg::Term => "ERR_TERM_TYPE",
            U64Arg::NodeId => "ERR_NODE_ID_TYPE",
            U64Arg::RequestId => "ERR_REQUEST_ID_TYPE",
            U64Arg::Session => "ERR_SESSION_TYPE",
            U64Arg::Index => "ERR_INDEX_TYPE",
            U64Arg::Epoch => "ERR_EPOCH_TYPE",
            U64Arg::Seed => "ERR_SEED_TYPE",
            U64Arg::Command => "ERR_COMMAND_TYPE",
            U64Arg::Context => "ERR_CONTEXT_TYPE",
        }
    }

    const fn range_code(self) -> &'static str {
        match self {
            U64Arg::Token => "ERR_TOKEN_RANGE",
            U64Arg::Term => "ERR_TERM_RANGE",
            U64Arg::NodeId => "ERR_NODE_ID_RANGE",
            U64Arg::RequestId => "ERR_REQUEST_ID_RANGE",
            U64Arg::Session => "ERR_SESSION_RANGE",
            U64Arg::Index => "ERR_INDEX_RANGE",
            U64Arg::Epoch => "ERR_EPOCH_RANGE",
            U64Arg::Seed => "ERR_SEED_RANGE",
            U64Arg::Command => "ERR_COMMAND_RANGE",
            U64Arg::Context => "ERR_CONTEXT_RANGE",
        }
    }
}

/// The JS error class an error is thrown as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JsErrorClass {
    /// `Error`: the call does not apply in the machine's current state (e.g. Raft `propose`
    /// on a follower).
    Plain,
    /// `TypeError`: the value has the wrong JS type.
    Type,
    /// `RangeError`: the value has the right type but is outside the accepted range.
    Range,
}

/// A name in an error message: a static argument name (`now_ms`) or a built path
/// (`config.peers[2]`).
pub(crate) type Name = Cow<'static, str>;

/// Caller misuse detected at the JS boundary.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum BindingError {
    /// A `u64` argument was not a `bigint`; `got` describes what was passed.
    #[error("{name} must be a bigint, got {got}")]
    NotBigint {
        /// Which quantity (picks the code).
        arg: U64Arg,
        /// The argument or field path, e.g. `token` or `msg.term`.
        name: Name,
        /// `typeof` of the value and a short preview, e.g. `number 5`.
        got: String,
    },
    /// A `u64` argument was a `bigint` outside `0n ..= 2n ** 64n - 1n`.
    #[error(
        "{name} must be a bigint from 0n to 2n ** 64n - 1n (18446744073709551615n), got {value}n"
    )]
    BigintOutOfRange {
        /// Which quantity (picks the code).
        arg: U64Arg,
        /// The argument or field path.
        name: Name,
        /// The decimal digits of the value passed.
        value: String,
    },
    /// A millisecond argument was not a `number`; `got` describes what was passed.
    #[error("{arg} must be a number of milliseconds, got {got}")]
    NotMillis {
        /// The argument name, e.g. `now_ms` or `config.ttl_ms`.
        arg: Name,
        /// `typeof` of the value and a short preview.
        got: String,
    },
    /// A millisecond argument was NaN, infinite, negative, or beyond `u64::MAX` microseconds.
    #[error(
        "{arg} must be a finite number of milliseconds from 0 to 18446744073709551 \
         (2 ** 64 microseconds), got {shown}",
        shown = number_text(*.value)
    )]
    MillisOutOfRange {
        /// The argument name.
        arg: Name,
        /// The value passed.
        value: f64,
    },
    /// A millisecond argument had a fraction finer than one microsecond (docs/design.md, "Time
    /// and numbers": fractions down to 1 us).
    #[error(
        "{arg} must be a whole number of microseconds (a multiple of 0.001 ms), got {shown}; \
         round it, e.g. Math.round(ms * 1000) / 1000",
        shown = number_text(*.value)
    )]
    MillisPrecision {
        /// The argument name.
        arg: Name,
        /// The value passed.
        value: f64,
    },
    /// An argument that must be a plain object (a config, message or request) was not one.
    #[error("{arg} must be an object, got {got}")]
    NotObject {
        /// The argument or field path.
        arg: Name,
        /// `typeof` of the value and a short preview.
        got: String,
    },
    /// An argument that must be an array was not one.
    #[error("{arg} must be an array, got {got}")]
    NotArray {
        /// The argument or field path.
        arg: Name,
        /// `typeof` of the value and a short preview.
        got: String,
    },
    /// A required key of an object was absent or `undefined`.
    #[error("{arg} is required")]
    MissingKey {
        /// The path of the missing key, e.g. `msg.term`.
        arg: Name,
    },
    /// An object had a key the shape does not define (a typo such as `ttl` for `ttl_ms`).
    #[error("{object} has no key \"{key}\"; its keys are {known}", known = .known.join(", "))]
    UnknownKey {
        /// The object's path, e.g. `config`.
        object: Name,
        /// The unexpected key.
        key: String,
        /// The keys the shape defines.
        known: &'static [&'static str],
    },
    /// A discriminant (`type`) or enumerated string had a value outside its set.
    #[error("{arg} must be one of {expected}, got {got}", expected = quoted(.expected))]
    BadVariant {
        /// The argument or field path, e.g. `msg.type`.
        arg: Name,
        /// The accepted values.
        expected: &'static [&'static str],
        /// `typeof` of the value and a short preview.
        got: String,
    },
    /// A field that must be a boolean was not one.
    #[error("{arg} must be a boolean, got {got}")]
    NotBoolean {
        /// The field path.
        arg: Name,
        /// `typeof` of the value and a short preview.
        got: String,
    },
    /// A field that must be a string was not one.
    #[error("{arg} must be a string, got {got}")]
    NotString {
        /// The field path.
        arg: Name,
        /// `typeof` of the value and a short preview.
        got: String,
    },
    /// A string field held a lone UTF-16 surrogate, which has no UTF-8 form: read as
    /// U+FFFD, two different keys would name the same lease.
    #[error(
        "{arg} is not well-formed Unicode: a lone UTF-16 surrogate at index {at} has no UTF-8 \
         form; pass a well-formed string (String.prototype.isWellFormed())"
    )]
    LoneSurrogate {
        /// The field path.
        arg: Name,
        /// Its index in UTF-16 code units.
        at: u32,
    },
    /// A field that must be an integer `number` (a count, ppm) was not a `number`.
    #[error("{arg} must be a number, got {got}")]
    NotInteger {
        /// The field path.
        arg: Name,
        /// `typeof` of the value and a short preview.
        got: String,
    },
    /// An integer `number` field was fractional, negative, or above its maximum.
    #[error("{arg} must be a whole number from {min} to {max}, got {shown}", shown = number_text(*.value))]
    IntegerOutOfRange {
        /// The least value accepted (0 for most fields; 1 where 0 is refused).
        min: u64,
        /// The field path.
        arg: Name,
        /// The value passed.
        value: f64,
        /// The largest accepted value.
        max: u64,
    },
    /// A config object failed the machine's `validate()`; `message` names the keys as the
    /// caller wrote them, the values in ms and the defaults (`crate::config_words`).
    #[error("invalid {machine} config: {message}")]
    Config {
        /// `lease`, `raft` or `bully`.
        machine: &'static str,
        /// The rule broken, in the caller's words.
        message: String,
    },
    /// A persisted state given to `restart` that no node writes (a Raft log whose terms
    /// decrease, or exceed the persisted term).
    #[error("invalid persisted state: {message}")]
    State {
        /// The rule broken, naming the entry (`log[1].term 2 is below ...`).
        message: String,
    },
    /// A list or string longer than the documented limit (`crate::limits`), refused before
    /// anything was read or allocated.
    #[error("{arg} has {shown} {unit}; at most {max} are accepted", shown = number_text(*.len))]
    TooLarge {
        /// The field path, e.g. `config.peers`.
        arg: Name,
        /// The length reported (a Proxy may report any number).
        len: f64,
        /// `elements` or `characters`.
        unit: &'static str,
        /// The limit.
        max: usize,
    },
    /// An argument was a revoked Proxy, which the engine refuses to read.
    #[error("{arg} is a revoked Proxy and cannot be read")]
    RevokedProxy {
        /// The argument or field path.
        arg: Name,
    },
    /// Raft `propose` on a node that is not the leader (forward to `leaderId` instead).
    #[error("{}", not_leader_words(.0))]
    NotLeader(tenure::NotLeader),
    /// Raft `campaign` refused by the core (already leader, or term exhausted).
    #[error("{message}")]
    Campaign {
        /// The stable code of the refusal.
        code: &'static str,
        /// The core error's message.
        message: String,
    },
}

impl BindingError {
    /// The stable `code` property of the thrown error.
    pub(crate) fn code(&self) -> &'static str {
        match self {
            BindingError::NotBigint { arg, .. } => arg.type_code(),
            BindingError::BigintOutOfRange { arg, .. } => arg.range_code(),
            BindingError::NotMillis { .. } => "ERR_MILLIS_TYPE",
            BindingError::MillisOutOfRange { .. } => "ERR_MILLIS_RANGE",
            BindingError::MillisPrecision { .. } => "ERR_MILLIS_PRECISION",
            BindingError::NotObject { .. } => "ERR_OBJECT_TYPE",
            BindingError::NotArray { .. } => "ERR_ARRAY_TYPE",
            BindingError::MissingKey { .. } => "ERR_MISSING_KEY",
            BindingError::UnknownKey { .. } => "ERR_UNKNOWN_KEY",
            BindingError::BadVariant { .. } => "ERR_VARIANT",
            BindingError::NotBoolean { .. } => "ERR_BOOLEAN_TYPE",
            BindingError::NotString { .. } | BindingError::LoneSurrogate { .. } => {
                "ERR_STRING_TYPE"
            }
            BindingError::NotInteger { .. } => "ERR_INTEGER_TYPE",
            BindingError::IntegerOutOfRange { .. } => "ERR_INTEGER_RANGE",
            BindingError::Config { .. } => "ERR_CONFIG",
            BindingError::State { .. } => "ERR_STATE",
            BindingError::TooLarge { .. } => "ERR_TOO_LARGE",
            BindingError::RevokedProxy { .. } => "ERR_REVOKED_PROXY",
            BindingError::NotLeader(_) => "ERR_NOT_LEADER",
            BindingError::Campaign { code, .. } => code,
        }
    }

    /// The JS error class the error is thrown as.
    pub(crate) fn class(&self) -> JsErrorClass {
        match self {
            BindingError::NotBigint { .. }
            | BindingError::NotMillis { .. }
            | BindingError::NotObject { .. }
            | BindingError::NotArray { .. }
            | BindingError::MissingKey { .. }
            | BindingError::UnknownKey { .. }
            | BindingError::BadVariant { .. }
            | BindingError::NotBoolean { .. }
            | BindingError::NotString { .. }
            | BindingError::LoneSurrogate { .. }
            | BindingError::NotInteger { .. }
            | BindingError::RevokedProxy { .. } => JsErrorClass::Type,
            BindingError::BigintOutOfRange { .. }
            | BindingError::MillisOutOfRange { .. }
            | BindingError::MillisPrecision { .. }
            | BindingError::IntegerOutOfRange { .. }
            | BindingError::TooLarge { .. }
            | BindingError::Config { .. }
            | BindingError::State { .. } => JsErrorClass::Range,
            BindingError::NotLeader(_) | BindingError::Campaign { .. } => JsErrorClass::Plain,
        }
    }
}

impl BindingError {
    /// The same error naming `name` instead (the reader of an object field passes the
    /// field's path, built only on this error path).
    pub(crate) fn with_name(mut self, name: Name) -> Self {
        match &mut self {
            BindingError::NotBigint { name: n, .. }
            | BindingError::BigintOutOfRange { name: n, .. } => *n = name,
            BindingError::NotMillis { arg, .. }
            | BindingError::MillisOutOfRange { arg, .. }
            | BindingError::MillisPrecision { arg, .. }
            | BindingError::NotObject { arg, .. }
            | BindingError::NotArray { arg, .. }
            | BindingError::MissingKey { arg }
            | BindingError::BadVariant { arg, .. }
            | BindingError::NotBoolean { arg, .. }
            | BindingError::NotString { arg, .. }
            | BindingError::LoneSurrogate { arg, .. }
            | BindingError::NotInteger { arg, .. }
            | BindingError::IntegerOutOfRange { arg, .. }
            | BindingError::TooLarge { arg, .. }
            | BindingError::RevokedProxy { arg } => *arg = name,
            BindingError::UnknownKey { object, .. } => *object = name,
            BindingError::Config { .. }
            | BindingError::State { .. }
            | BindingError::NotLeader(_)
            | BindingError::Campaign { .. } => {}
        }
        self
    }
}

impl BindingError {
    /// A lease config refused by `validate()`, worded against the caller's `config` object
    /// (the keys it gave, the defaults it did not).
    pub(crate) fn lease_config(err: &tenure::LeaseConfigError, config: &JsValue) -> Self {
        BindingError::Config {
            machine: "lease",
            message: crate::config_words::lease(err, &crate::config_words::given_in(config)),
        }
    }

    /// A Raft config refused by `validate()`, worded against the caller's `config` object,
    /// or a persisted state `restart` refused.
    pub(crate) fn raft_config(err: &tenure::raft::ConfigError, config: &JsValue) -> Self {
        if let tenure::raft::ConfigError::State(state) = err {
            return BindingError::State {
                message: state.to_string(),
            };
        }
        BindingError::Config {
            machine: "raft",
            message: crate::config_words::raft(err, &crate::config_words::given_in(config)),
        }
    }

    /// A Bully config refused by `validate()`, worded against the caller's `config` object.
    pub(crate) fn bully_config(err: &tenure::bully::ConfigError, config: &JsValue) -> Self {
        BindingError::Config {
            machine: "bully",
            message: crate::config_words::bully(err, &crate::config_words::given_in(config)),
        }
    }
}

/// Without the caller's object every value counts as given (no "(the default)" notes).
impl From<tenure::LeaseConfigError> for BindingError {
    fn from(err: tenure::LeaseConfigError) -> Self {
        BindingError::Config {
            machine: "lease",
            message: crate::config_words::lease(&err, &|_| true),
        }
    }
}

impl From<tenure::raft::ConfigError> for BindingError {
    fn from(err: tenure::raft::ConfigError) -> Self {
        BindingError::Config {
            machine: "raft",
            message: crate::config_words::raft(&err, &|_| true),
        }
    }
}

impl From<tenure::bully::ConfigError> for BindingError {
    fn from(err: tenure::bully::ConfigError) -> Self {
        BindingError::Config {
            machine: "bully",
            message: crate::config_words::bully(&err, &|_| true),
        }
    }
}

impl From<tenure::NotLeader> for BindingError {
    fn from(err: tenure::NotLeader) -> Self {
        BindingError::NotLeader(err)
    }
}

impl From<tenure::raft::CampaignError> for BindingError {
    fn from(err: tenure::raft::CampaignError) -> Self {
        let code = match err {
            tenure::raft::CampaignError::AlreadyLeader { .. } => "ERR_ALREADY_LEADER",
            tenure::raft::CampaignError::TermExhausted { .. } => "ERR_TERM_EXHAUSTED",
            _ => "ERR_CAMPAIGN",
        };
        BindingError::Campaign {
            code,
            message: err.to_string(),
        }
    }
}

/// A refused leader-only command in the JS caller's words: the leader as the bigint it
/// passes (`2n`, the `leaderId` to forward to), not the core's `n2`.
fn not_leader_words(err: &tenure::NotLeader) -> String {
    match err {
        tenure::NotLeader::NotLeading {
            term: Some(term),
            leader,
        } => format!("not the leader of term {term}; {}", leader_words(*leader)),
        other => other.to_string(),
    }
}

/// "the leader is 2n (leaderId)" or "no leader is known": a refused `propose`.
fn leader_words(leader: Option<tenure::NodeId>) -> String {
    match leader {
        Some(id) => format!("the leader is {}n (leaderId); send the command there", id.0),
        None => String::from("no leader is known yet (leaderId is undefined)"),
    }
}

/// `"a", "b", "c"`: the accepted values of a [`BindingError::BadVariant`].
fn quoted(values: &[&str]) -> String {
    // Plain quotes, not `{:?}`: the values are ASCII names, and str's Debug (escapes,
    // Unicode tables) costs the module kilobytes.
    let quoted: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
    quoted.join(", ")
}

impl From<BindingError> for JsValue {
    fn from(err: BindingError) -> JsValue {
        let message = err.to_string();
        let error: js_sys::Error = match err.class() {
            JsErrorClass::Plain => js_sys::Error::new(&message),
            JsErrorClass::Type => js_sys::TypeError::new(&message).unchecked_into(),
            JsErrorClass::Range => js_sys::RangeError::new(&message).unchecked_into(),
        };
        // Setting a data property on a fresh, unfrozen Error object cannot fail; if it somehow
        // did, the caller still gets the right class and message.
        let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &err.code().into());
        error.into()
    }
}

/// Describes a JS value for an error message: its `typeof` and a short preview (a string is
/// previewed without being copied whole; an object that is not plain names its constructor).
pub(crate) fn describe(value: &JsValue) -> String {
    let kind = value.js_typeof().as_string().unwrap_or_default();
    if value.is_bigint() {
        return format!("bigint {}n", crate::convert::bigint_preview(value));
    }
    match crate::js::is_array(value) {
        Ok(true) => return String::from("array"),
        Ok(false) => {}
        Err(_) => return String::from("a revoked Proxy"),
    }
    if let Some(n) = value.as_f64() {
        format!("{kind} {}", number_text(n))
    } else if let Some(s) = value.dyn_ref::<js_sys::JsString>() {
        let head = s.slice(0, 32);
        let preview = String::from(head);
        format!("{kind} \"{preview}\"")
    } else if value.is_null() {
        String::from("null")
    } else if value.is_object()
        && !value.is_function()
        && !crate::js::is_plain_object(value).unwrap_or(true)
    {
        // `constructor` is read through the prototype chain, so an object made from another
        // (`Object.create({...})`) names Object, which is no answer.
        match crate::js::constructor_name(value) {
            Some(name) if name != "Object" => format!("a {name} (not a plain object)"),
            _ => String::from("an object that is not a plain object"),
        }
    } else {
        kind
    }
}

/// A number as JS prints it (`5`, `5.5`, `NaN`, `-Infinity`).
///
/// In wasm this asks JS, which keeps Rust's float formatting (about 10 KiB) out of the module.
pub(crate) fn number_text(n: f64) -> String {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Number::from(n)
            .to_string_with_radix(10)
            .map(String::from)
            .unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        format!("{n}")
    }
}
