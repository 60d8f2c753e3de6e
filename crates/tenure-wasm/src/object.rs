//! Building the plain JS objects that exported methods return.
//!
//! Normal outcomes (an accepted write, a stale token) are returned as plain objects, not
//! thrown (docs/design.md, "The JS face"). Their TypeScript shapes are in [`crate::types`].

use std::cell::RefCell;

use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen]
extern "C" {
    /// A plain object being built.
    type Record;

    /// `record[key] = value`, uncaught: on a fresh ordinary object it cannot throw. (A keyed
    /// store is inline-cached by the engine; `Reflect.set` went through the runtime and was
    /// most of a machine call's cost.)
    #[wasm_bindgen(method, structural, indexing_setter)]
    fn set(this: &Record, key: &JsValue, value: &JsValue);
}

thread_local! {
    /// The JS strings of the bindings' `'static` names (object keys, `type` tags, enum
    /// names), each made once. Decoding a name's UTF-8 into a fresh JS string on every use
    /// cost more than the rest of a machine call. Bounded by the literals in the binary.
    static NAMES: RefCell<Vec<(&'static str, JsValue)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with the JS string for `name`, made on first use and reused after.
fn with_name<T>(name: &'static str, f: impl FnOnce(&JsValue) -> T) -> T {
    NAMES.with(|names| {
        let mut names = names.borrow_mut();
        // Same literal, same address: a pointer comparison (address and length).
        if let Some((_, value)) = names.iter().find(|(n, _)| core::ptr::eq(*n, name)) {
            return f(value);
        }
        let value = JsValue::from_str(name);
        let out = f(&value);
        names.push((name, value));
        out
    })
}

/// The JS string `name` (a `'static` literal: a `type` tag, an enum name), shared.
pub(crate) fn name(name: &'static str) -> JsValue {
    with_name(name, JsValue::clone)
}

/// Whether `value` is the JS string `name` (`===`, no copy of `value` into Rust).
pub(crate) fn is_name(value: &JsValue, name: &'static str) -> bool {
    with_name(name, |n| n == value)
}

/// A plain object `{ key: value, ... }` with the given properties, in order.
pub(crate) fn plain_object(props: &[(&'static str, JsValue)]) -> Result<JsValue, JsValue> {
    let object: JsValue = js_sys::Object::new().into();
    let record: &Record = wasm_bindgen::JsCast::unchecked_ref(&object);
    for (key, value) in props {
        with_name(key, |key| record.set(key, value));
    }
    Ok(object)
}

/// A property value as the shape writers return it: a `JsValue`, or an `Option<JsValue>`
/// whose `None` leaves the key out (what a store did not say, such as `Held.holder`).
#[cfg(feature = "machines")]
pub(crate) trait Prop {
    /// The value, or `None` to leave the key out.
    fn prop(self) -> Option<JsValue>;
}

#[cfg(feature = "machines")]
impl Prop for JsValue {
    fn prop(self) -> Option<JsValue> {
        Some(self)
    }
}

#[cfg(feature = "machines")]
impl Prop for Option<JsValue> {
    fn prop(self) -> Option<JsValue> {
        self
    }
}

/// A plain object with the given properties, in order, leaving out each `None`.
#[cfg(feature = "machines")]
pub(crate) fn sparse_object(props: &[(&'static str, Option<JsValue>)]) -> Result<JsValue, JsValue> {
    let object: JsValue = js_sys::Object::new().into();
    let record: &Record = wasm_bindgen::JsCast::unchecked_ref(&object);
    for (key, value) in props {
        if let Some(value) = value {
            with_name(key, |key| record.set(key, value));
        }
    }
    Ok(object)
}

/// A plain object `{ type: tag, keys[i]: values[i], ... }`, leaving out each `None`.
#[cfg(feature = "machines")]
pub(crate) fn tagged_object(
    tag: &'static str,
    keys: &'static [&'static str],
    values: &[Option<JsValue>],
) -> Result<JsValue, JsValue> {
    let object: JsValue = js_sys::Object::new().into();
    let record: &Record = wasm_bindgen::JsCast::unchecked_ref(&object);
    // The tag's string first: `with_name` cannot be entered from within itself.
    let tag = name(tag);
    with_name("type", |key| record.set(key, &tag));
    for (key, value) in keys.iter().zip(values) {
        if let Some(value) = value {
            with_name(key, |key| record.set(key, value));
        }
    }
    Ok(object)
}

/// A JSON-safe deep copy of a plain data value: every `bigint` becomes its decimal string
/// (JSON has no bigint), arrays and plain objects are copied, other values kept. Used by the
/// machines' `toJSON()`.
pub(crate) fn json_safe(value: &JsValue) -> Result<JsValue, JsValue> {
    if value.is_bigint() {
        return Ok(JsValue::from_str(&crate::convert::bigint_digits(value)));
    }
    if js_sys::Array::is_array(value) {
        let array: &js_sys::Array = wasm_bindgen::JsCast::unchecked_ref(value);
        let out = js_sys::Array::new();
        for item in array.iter() {
            out.push(&json_safe(&item)?);
        }
        return Ok(out.into());
    }
    if value.is_object() {
        let object: &js_sys::Object = wasm_bindgen::JsCast::unchecked_ref(value);
        let out = js_sys::Object::new();
        for key in js_sys::Object::keys(object).iter() {
            let item = js_sys::Reflect::get(object, &key)?;
            js_sys::Reflect::set(&out, &key, &json_safe(&item)?)?;
        }
        return Ok(out.into());
    }
    Ok(value.clone())
}
