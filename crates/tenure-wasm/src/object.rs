//! Building the plain JS objects that exported methods return.
//!
//! Normal outcomes (an accepted write, a stale token) are returned as plain objects, not
//! thrown (DESIGN.md, "The JS face"). Their TypeScript shapes are in [`crate::types`].

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
