//! `js_union!`: one declaration per tagged JS union (`{ type, ...fields }`), from which come
//! its tag and key tables, its reader and its writer.
//!
//! Each field names a reader, called as `read(&fields, "key", args...)` (a [`Fields`]
//! method through its path, such as `Fields::u64`, or a free function of that form), and a
//! writer, called as `write(&value)` and returning `Result<JsValue, JsValue>`. The reader
//! goes through [`Fields::tagged`], so error codes, classes and paths are those of every
//! other shape. Fields are read in declaration order.
//!
//! [`Fields`]: crate::read::Fields
//! [`Fields::tagged`]: crate::read::Fields::tagged

use wasm_bindgen::JsValue;

use crate::convert::u64_to_bigint;

/// A `u64` as a `bigint`, in the writer's form.
#[allow(clippy::trivially_copy_pass_by_ref)] // The writers all take their field by reference.
pub(crate) fn bigint(value: &u64) -> Result<JsValue, JsValue> {
    Ok(u64_to_bigint(*value))
}

/// A `bool` as a boolean, in the writer's form.
#[allow(clippy::trivially_copy_pass_by_ref)]
pub(crate) fn boolean(value: &bool) -> Result<JsValue, JsValue> {
    Ok((*value).into())
}

/// Declares a tagged union: `js_union!(Enum, TAGS, KEYS, reader, writer; Variant { field:
/// read(args) => write, ... } ...)`. The reader is `reader(value, path) -> Result<Enum, _>`
/// and the writer `writer(&Enum) -> Result<JsValue, JsValue>`.
macro_rules! js_union {
    (
        $enum:ident, $tags:ident, $keys:ident, $from:ident, $to:ident;
        $( $variant:ident { $( $field:ident : $read:path $(, $arg:expr)* => $write:path ),* $(,)? } )*
    ) => {
        const $tags: &[&str] = &[$(stringify!($variant)),*];
        const $keys: &[&[&str]] = &[$(&["type" $(, stringify!($field))*]),*];

        /// Reads the JS union (named `path` in errors).
        pub(crate) fn $from(
            value: &::wasm_bindgen::JsValue,
            path: impl Into<crate::error::Name>,
        ) -> Result<$enum, ::wasm_bindgen::JsValue> {
            let (tag, f) = crate::read::Fields::tagged(value, path, $tags, $keys)?;
            let mut index = 0usize;
            $(
                // The last variant takes any index left (`Fields::tagged` returns one below
                // the number of tags), so no unreachable error branch is compiled.
                if tag == index || index + 1 == $tags.len() {
                    return Ok($enum::$variant {
                        $( $field: $read(&f, stringify!($field) $(, $arg)*)?, )*
                    });
                }
                index += 1;
            )*
            let _ = index;
            Err(::wasm_bindgen::JsValue::UNDEFINED)
        }

        /// Writes the union as a plain JS object with its `type` tag.
        pub(crate) fn $to(value: &$enum) -> Result<::wasm_bindgen::JsValue, ::wasm_bindgen::JsValue> {
            match value {
                $(
                    $enum::$variant { $($field),* } => crate::object::plain_object(&[
                        ("type", crate::object::name(stringify!($variant))),
                        $( (stringify!($field), $write($field)?), )*
                    ]),
                )*
            }
        }
    };
}

pub(crate) use js_union;
