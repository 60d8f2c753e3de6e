//! Catching wrappers for the JS operations that can run user code while an argument is read.
//!
//! A JS exception that unwinds through a Rust frame skips everything Rust would have done on
//! the way out, including wasm-bindgen's release of the borrow it holds on the instance for
//! the method call: the instance would answer every later call, `free()` included, with
//! "recursive use of an object". Proxies (a revoked one, or traps that throw) and getters can
//! throw from `Array.isArray`, `Object.keys`, `length` and element reads, so every such read
//! goes through these functions, which hand the exception back as a [`Thrown`] for the caller
//! to turn into the value it throws ([`Thrown::into_js`]): the instance stays usable.
//!
//! What the caller then sees (documented in `pkg/README.md`, "Errors"):
//! - reading a revoked Proxy: a `TypeError` coded `ERR_REVOKED_PROXY` naming the argument,
//!   with the engine's own error as its `cause`;
//! - a getter or Proxy trap that throws: that exception, unchanged, and, when it is an
//!   `Error` with no `code` of its own, marked `code: "ERR_INPUT_THREW"` (an engine error
//!   raised inside a trap, such as a Proxy invariant violation, included).

use js_sys::{Array, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::error::BindingError;

#[wasm_bindgen]
extern "C" {
    /// `Array.isArray(value)`, which throws for a revoked Proxy (and runs no user code).
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array_js(value: &JsValue) -> Result<bool, JsValue>;

    /// `Object.keys(value)`, which runs a Proxy's `ownKeys` and descriptor traps.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn keys_js(value: &JsValue) -> Result<Array, JsValue>;

    /// Any object whose properties are read.
    type Readable;

    /// `object[key]`, which runs getters and a Proxy's `get` trap. (A keyed load is
    /// inline-cached by the engine; `Reflect.get` goes through the runtime.)
    #[wasm_bindgen(catch, method, structural, indexing_getter)]
    fn get_js(this: &Readable, key: &JsValue) -> Result<JsValue, JsValue>;

    /// `Object.getPrototypeOf(value)`, which runs a Proxy's `getPrototypeOf` trap.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = getPrototypeOf)]
    fn prototype_of_js(value: &JsValue) -> Result<JsValue, JsValue>;
}

/// An exception thrown while an argument was read, and whether the argument was a revoked
/// Proxy (the engine's refusal, not user code).
#[derive(Debug)]
pub(crate) struct Thrown {
    value: JsValue,
    revoked: bool,
}

impl Thrown {
    /// `value` was thrown while `subject` was read.
    fn new(value: JsValue, subject: &JsValue) -> Thrown {
        Thrown {
            value,
            revoked: subject.is_object() && is_array_js(subject).is_err(),
        }
    }

    /// The value to throw to the JS caller, naming the argument `path`.
    pub(crate) fn into_js(self, path: &str) -> JsValue {
        if self.revoked {
            let error: JsValue = BindingError::RevokedProxy {
                arg: path.to_owned().into(),
            }
            .into();
            let _ = Reflect::set(&error, &JsValue::from_str("cause"), &self.value);
            return error;
        }
        mark(&self.value);
        self.value
    }
}

/// Gives an `Error` thrown by user code during a read `code: "ERR_INPUT_THREW"`, unless it
/// has a `code` already or cannot take one (frozen, or not an `Error`).
fn mark(value: &JsValue) {
    // wasm-bindgen's `instanceof` shim catches, so a thrown Proxy's trap cannot escape here.
    if value.dyn_ref::<js_sys::Error>().is_none() {
        return;
    }
    let code = JsValue::from_str("code");
    if Reflect::get_own_property_descriptor(value.unchecked_ref::<js_sys::Object>(), &code)
        .is_ok_and(|d| d.is_undefined())
    {
        let descriptor = js_sys::Object::new();
        let _ = Reflect::set(
            &descriptor,
            &JsValue::from_str("value"),
            &JsValue::from_str("ERR_INPUT_THREW"),
        );
        let _ = Reflect::set(
            &descriptor,
            &JsValue::from_str("configurable"),
            &JsValue::TRUE,
        );
        let _ = Reflect::set(&descriptor, &JsValue::from_str("writable"), &JsValue::TRUE);
        let _ =
            Reflect::define_property(value.unchecked_ref::<js_sys::Object>(), &code, &descriptor);
    }
}

/// Whether `value` is an array; `Err` if asking throws (a revoked Proxy).
pub(crate) fn is_array(value: &JsValue) -> Result<bool, Thrown> {
    if !value.is_object() {
        return Ok(false);
    }
    is_array_js(value).map_err(|e| Thrown::new(e, value))
}

/// Whether `value` is a plain object: a non-array, non-function object whose prototype is
/// `null` or a prototype whose own prototype is `null` (`Object.prototype` of any realm).
/// A `Map`, `Date`, boxed primitive or class instance is not.
pub(crate) fn is_plain_object(value: &JsValue) -> Result<bool, Thrown> {
    if !value.is_object() || value.is_function() || is_array(value)? {
        return Ok(false);
    }
    let proto = prototype_of_js(value).map_err(|e| Thrown::new(e, value))?;
    if proto.is_null() {
        return Ok(true);
    }
    let grand = prototype_of_js(&proto).map_err(|e| Thrown::new(e, value))?;
    Ok(grand.is_null())
}

/// The name of `value`'s constructor (`Map`, `Date`, `Number`), for messages; `None` when it
/// has none or reading it throws.
pub(crate) fn constructor_name(value: &JsValue) -> Option<String> {
    let proto = prototype_of_js(value).ok()?;
    if !proto.is_object() {
        return None;
    }
    let ctor = Reflect::get(&proto, &JsValue::from_str("constructor")).ok()?;
    if !ctor.is_function() {
        return None;
    }
    let name = Reflect::get(&ctor, &JsValue::from_str("name")).ok()?;
    let name = bounded_string(&name, 64).ok().flatten()?;
    (!name.is_empty()).then_some(name)
}

/// The own enumerable string keys of `object`, as a fresh array.
pub(crate) fn own_keys(object: &JsValue) -> Result<Array, Thrown> {
    keys_js(object).map_err(|e| Thrown::new(e, object))
}

/// `object[key]`, through getters and Proxy traps.
pub(crate) fn get(object: &JsValue, key: &JsValue) -> Result<JsValue, Thrown> {
    object
        .unchecked_ref::<Readable>()
        .get_js(key)
        .map_err(|e| Thrown::new(e, object))
}

/// An array's `length` as reported (a Proxy may report anything).
pub(crate) enum Length {
    /// A whole number in `0 ..= 2^32 - 1`.
    Valid(u32),
    /// A number that is not a valid array length (fractional, negative, NaN, >= 2^32).
    Invalid(f64),
    /// Not a number at all.
    NotNumber,
}

/// Reads `array.length`.
pub(crate) fn length(array: &JsValue) -> Result<Length, Thrown> {
    let value = get(array, &JsValue::from_str("length"))?;
    Ok(match value.as_f64() {
        Some(n) if n.fract() == 0.0 && n >= 0.0 && n <= f64::from(u32::MAX) => {
            // Integral and in range: the cast is exact.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Length::Valid(n as u32)
        }
        Some(n) => Length::Invalid(n),
        None => Length::NotNumber,
    })
}

/// The first `count` elements of `array`, read through its index getters. The caller has
/// checked `count` against its limit, so the allocation is bounded.
pub(crate) fn elements(array: &JsValue, count: u32) -> Result<Vec<JsValue>, Thrown> {
    let mut out = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
    for i in 0..count {
        out.push(get(array, &JsValue::from(i))?);
    }
    Ok(out)
}

/// The index of the first lone UTF-16 surrogate of the JS string `value`, which `as_string`
/// turned into U+FFFD in `read`: looked for (in JS, `lease_fast`'s snippet) only when `read`
/// holds a U+FFFD, so well-formed text costs one scan of the Rust string. Only the machines
/// module looks: its strings are lease keys, where two keys read as one would be one lease;
/// the sim and search modules (one `inline_js` snippet folder is shared by the three modules'
/// glue, so they carry none) read scenario text, where U+FFFD changes only what is shown.
pub(crate) fn lone_surrogate(value: &JsValue, read: &str) -> Option<u32> {
    #[cfg(feature = "machines")]
    if read
        .as_bytes()
        .windows(3)
        .any(|w| w == "\u{FFFD}".as_bytes())
    {
        return u32::try_from(crate::lease_fast::lone_surrogate_js(value)).ok();
    }
    let _ = (value, read);
    None
}

/// `value` as a Rust string if it is a JS string of at most `max` UTF-16 code units;
/// `Ok(None)` if it is not a string, `Err(len)` if it is longer (nothing is copied).
pub(crate) fn bounded_string(value: &JsValue, max: usize) -> Result<Option<String>, u32> {
    let Some(s) = value.dyn_ref::<js_sys::JsString>() else {
        return Ok(None);
    };
    let len = s.length();
    if usize::try_from(len).map_or(true, |l| l > max) {
        return Err(len);
    }
    Ok(value.as_string())
}
