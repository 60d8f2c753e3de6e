//! Typed errors of the JS boundary, and their conversion into real JS error objects.
//!
//! Misuse from JavaScript (a `number` where a `bigint` token is expected, a token `>= 2^64`,
//! a negative time, ...) becomes a [`BindingError`]. Crossing into JS it turns into a genuine
//! `TypeError` or `RangeError` (so `instanceof` works), with two properties a caller can rely on:
//! `message`, which names the argument and the offending value, and `code`, a stable string
//! such as `"ERR_TOKEN_RANGE"` (STYLE.md item 12; modelled on Node's own `err.code`).
//!
//! Extending it (later bindings): add a variant with one doc line, give it a code in
//! [`BindingError::code`] and a class in [`BindingError::class`], and list the code in
//! `pkg/README.md` and in the `TenureErrorCode` union (`types.rs`). A new `u64` quantity
//! (term, node id) is a new [`U64Arg`] variant with its own `ERR_<NAME>_TYPE/RANGE` codes. Errors from the core (e.g. a config that fails `validate()`) get a variant
//! wrapping the core error plus a `From` impl, so `?` converts them. Exported methods return
//! `Result<T, JsValue>` and use `?`: `From<BindingError> for JsValue` builds the JS object.
//! Codes are API: never rename one.

use wasm_bindgen::{JsCast, JsValue};

/// Which `u64` quantity an argument holds; it picks the argument name and the error codes.
///
/// Later bindings add `Term`, `NodeId`, `Seed`, ... with their own codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum U64Arg {
    /// A fencing token (`bigint` in JS).
    Token,
}

impl U64Arg {
    /// The argument name used in messages.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            U64Arg::Token => "token",
        }
    }

    const fn type_code(self) -> &'static str {
        match self {
            U64Arg::Token => "ERR_TOKEN_TYPE",
        }
    }

    const fn range_code(self) -> &'static str {
        match self {
            U64Arg::Token => "ERR_TOKEN_RANGE",
        }
    }
}

/// The JS error class an error is thrown as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JsErrorClass {
    /// `TypeError`: the value has the wrong JS type.
    Type,
    /// `RangeError`: the value has the right type but is outside the accepted range.
    Range,
}

/// Caller misuse detected at the JS boundary.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum BindingError {
    /// A `u64` argument was not a `bigint`; `got` describes what was passed.
    #[error("{name} must be a bigint, got {got}", name = .arg.name())]
    NotBigint {
        /// Which argument.
        arg: U64Arg,
        /// `typeof` of the value and a short preview, e.g. `number 5`.
        got: String,
    },
    /// A `u64` argument was a `bigint` outside `0n ..= 2n ** 64n - 1n`.
    #[error("{name} must be in 0n..=18446744073709551615n, got {value}n", name = .arg.name())]
    BigintOutOfRange {
        /// Which argument.
        arg: U64Arg,
        /// The decimal digits of the value passed.
        value: String,
    },
    /// A millisecond argument was not a `number`; `got` describes what was passed.
    #[error("{arg} must be a number of milliseconds, got {got}")]
    NotMillis {
        /// The argument name, e.g. `now` or `ttl`.
        arg: &'static str,
        /// `typeof` of the value and a short preview.
        got: String,
    },
    /// A millisecond argument was NaN, infinite, negative, or beyond `u64::MAX` microseconds.
    #[error(
        "{arg} must be a finite number of milliseconds, >= 0 and below 2^64 us, got {shown}",
        shown = number_text(*.value)
    )]
    MillisOutOfRange {
        /// The argument name.
        arg: &'static str,
        /// The value passed.
        value: f64,
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
        }
    }

    /// The JS error class the error is thrown as.
    pub(crate) fn class(&self) -> JsErrorClass {
        match self {
            BindingError::NotBigint { .. } | BindingError::NotMillis { .. } => JsErrorClass::Type,
            BindingError::BigintOutOfRange { .. } | BindingError::MillisOutOfRange { .. } => {
                JsErrorClass::Range
            }
        }
    }
}

impl From<BindingError> for JsValue {
    fn from(err: BindingError) -> JsValue {
        let message = err.to_string();
        let error: js_sys::Error = match err.class() {
            JsErrorClass::Type => js_sys::TypeError::new(&message).unchecked_into(),
            JsErrorClass::Range => js_sys::RangeError::new(&message).unchecked_into(),
        };
        // Setting a data property on a fresh, unfrozen Error object cannot fail; if it somehow
        // did, the caller still gets the right class and message.
        let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &err.code().into());
        error.into()
    }
}

/// Describes a JS value for an error message: its `typeof` and a short preview.
pub(crate) fn describe(value: &JsValue) -> String {
    let kind = value.js_typeof().as_string().unwrap_or_default();
    if let Some(n) = value.as_f64() {
        format!("{kind} {}", number_text(n))
    } else if let Some(s) = value.as_string() {
        let preview: String = s.chars().take(32).collect();
        format!("{kind} {preview:?}")
    } else if value.is_null() {
        String::from("null")
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
