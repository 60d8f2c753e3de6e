//! Catching wrappers for the JS operations that can run user code while an argument is read.
//!
//! A JS exception that unwinds through a Rust frame skips everything Rust would have done on
//! the way out, including wasm-bindgen's release of the borrow it holds on the instance for
//! the method call: the instance would answer every later call, `free()` included, with
//! "recursive use of an object". Proxies (a revoked one, or traps that throw) and getters can
//! throw from `Array.isArray`, `Object.keys`, `length` and element reads, so every such read
//! goes through these functions, which hand the exception back as an `Err` for the caller to
//! return (the thrown value reaches the JS caller unchanged; the instance stays usable).

use js_sys::{Array, Reflect};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen]
extern "C" {
    /// `Array.isArray(value)`, which throws for a revoked Proxy.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array_js(value: &JsValue) -> Result<bool, JsValue>;

    /// `Object.keys(value)`, which runs a Proxy's `ownKeys` and descriptor traps.
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn keys_js(value: &JsValue) -> Result<Array, JsValue>;
}

/// Whether `value` is an array; `Err` with the thrown value if asking throws.
pub(crate) fn is_array(value: &JsValue) -> Result<bool, JsValue> {
    if !value.is_object() {
        return Ok(false);
    }
    is_array_js(value)
}

/// The own enumerable string keys of `object`, as a fresh array.
pub(crate) fn own_keys(object: &JsValue) -> Result<Array, JsValue> {
    keys_js(object)
}

/// The elements of `array`, read through its `length` and index getters.
///
/// A `length` that is not a whole number in `0..2^32` reads as 0 elements.
pub(crate) fn elements(array: &JsValue) -> Result<Vec<JsValue>, JsValue> {
    let length = Reflect::get(array, &JsValue::from_str("length"))?
        .as_f64()
        .filter(|n| n.fract() == 0.0 && *n >= 0.0 && *n <= f64::from(u32::MAX))
        .map_or(0, |n| n as u32);
    let mut out = Vec::with_capacity(usize::try_from(length).unwrap_or(0));
    for i in 0..length {
        out.push(Reflect::get(array, &JsValue::from(i))?);
    }
    Ok(out)
}
