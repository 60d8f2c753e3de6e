//! Building the plain JS objects that exported methods return.
//!
//! Normal outcomes (an accepted write, a stale token) are returned as plain objects, not
//! thrown (docs/design.md, "The JS face"). Their TypeScript shapes are in [`crate::types`].

use wasm_bindgen::JsValue;

/// A plain object `{ key: value, ... }` with the given properties, in order.
///
/// `Reflect.set` on a fresh ordinary object cannot fail; the error path only forwards what JS
/// would report.
pub(crate) fn plain_object(props: &[(&str, JsValue)]) -> Result<JsValue, JsValue> {
    let object = js_sys::Object::new();
    for (key, value) in props {
        js_sys::Reflect::set(&object, &JsValue::from_str(key), value)?;
    }
    Ok(object.into())
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
