//! `js_union!` and `js_object!`: one declaration per JS data shape (a tagged union
//! `{ type, ...fields }` or a plain object), from which come its key tables, its reader, its
//! writer and its TypeScript declaration.
//!
//! Each field gives its TypeScript type (a string literal, such as `"Term"` or
//! `"NodeId | null"`; `optional` before it makes the key optional in TypeScript), its reader,
//! called as `read(&fields, "key", args...)` (a [`Fields`] method through its path, such as
//! `Fields::u64`, or a free function of that form), and its writer, called as `write(&value)`
//! and returning `Result<JsValue, JsValue>` (or `Result<Option<JsValue>, JsValue>`, whose
//! `None` leaves the key out). The doc comments of the shape, its variants and
//! its fields become the TypeScript doc comments (shown on hover). The reader goes through
//! [`Fields::tagged`] or [`Fields::new`], so error codes, classes and paths are those of every
//! other shape. Fields are read in declaration order.
//!
//! A union variant is `$enum::$variant { fields }` unless it names its Rust form after `=`,
//! in parentheses (a pattern that is also an expression, binding every field):
//! `Command { term: ..., command: ... } = (Entry { term, data: EntryData::Command(command) })`.
//!
//! The TypeScript is a `concat!` of literals handed to wasm-bindgen's
//! `typescript_custom_section`, which takes a constant expression (wasm-bindgen PR #3901:
//! <https://github.com/rustwasm/wasm-bindgen/pull/3901>). docs/bindings.md, "Shapes declared
//! once", has the decision and its figures.
//!
//! [`Fields`]: crate::read::Fields
//! [`Fields::tagged`]: crate::read::Fields::tagged
//! [`Fields::new`]: crate::read::Fields::new

use tenure::lease::{RequestId, SessionId};
use tenure::{FencingToken, NodeId};
use wasm_bindgen::JsValue;

use crate::convert::u64_to_bigint;
use crate::error::U64Arg;
use crate::read::Fields;

/// A `u64` quantity: `u64` itself or a core newtype over one (`NodeId`, `FencingToken`,
/// `RequestId`, `SessionId`), a `bigint` in JS.
pub(crate) trait Quantity: Copy {
    /// The quantity holding `value`.
    fn from_u64(value: u64) -> Self;
    /// Its `u64`.
    fn to_u64(self) -> u64;
}

impl Quantity for u64 {
    fn from_u64(value: u64) -> Self {
        value
    }
    fn to_u64(self) -> u64 {
        self
    }
}

/// `Quantity` for newtypes over a `u64`.
macro_rules! quantity {
    ($($t:ty),*) => {
        $(impl Quantity for $t {
            fn from_u64(value: u64) -> Self {
                Self(value)
            }
            fn to_u64(self) -> u64 {
                self.0
            }
        })*
    };
}

quantity!(NodeId, FencingToken, RequestId, SessionId);

/// A quantity field (a `bigint` in `0n ..= 2n ** 64n - 1n`, coded as `arg`), in the
/// reader's form.
pub(crate) fn big<T: Quantity>(f: &Fields, key: &'static str, arg: U64Arg) -> Result<T, JsValue> {
    Ok(T::from_u64(f.u64(key, arg)?))
}

/// A quantity as a `bigint`, in the writer's form.
#[allow(clippy::trivially_copy_pass_by_ref)] // The writers all take their field by reference.
pub(crate) fn bigint<T: Quantity>(value: &T) -> Result<JsValue, JsValue> {
    Ok(u64_to_bigint(value.to_u64()))
}

/// A `bool` as a boolean, in the writer's form.
#[allow(clippy::trivially_copy_pass_by_ref)]
pub(crate) fn boolean(value: &bool) -> Result<JsValue, JsValue> {
    Ok((*value).into())
}

// wasm-bindgen emits a TypeScript section for the wasm32 target only, so natively the two
// macros below are never expanded.
/// A TypeScript doc comment from doc-comment lines, followed by `$after`; nothing when there
/// are no lines.
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_macros))]
macro_rules! ts_doc {
    ($after:literal;) => {
        ""
    };
    ($after:literal; $doc:literal) => {
        concat!("/**", $doc, " */", $after)
    };
    ($after:literal; $first:literal $($doc:literal)+) => {
        concat!("/**", $first $(, "\n *", $doc)+, " */", $after)
    };
}

/// The TypeScript mark of an optional key.
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_macros))]
macro_rules! ts_optional {
    (optional) => {
        "?"
    };
}

/// Declares a tagged union (see the module docs):
///
/// ```text
/// js_union!(
///     /// Doc shown on the TypeScript type.
///     TsName = RustEnum;
///     read reader_fn, TAGS, KEYS;   // optional: reader_fn(value, path) -> Result<RustEnum, _>
///     write writer_fn;              // writer_fn(&RustEnum) -> Result<JsValue, JsValue>
///     /// Doc of the variant.
///     Variant {
///         /// Doc of the field.
///         field: "TsType" = Fields::u64, U64Arg::Term => bigint,
///     }
/// );
/// ```
///
/// A union that is only written (outputs, events) has no `read` line, and its fields no
/// `= reader`. A core enum that is `#[non_exhaustive]` ends with `_ => writer_fn`, the
/// writer of variants added to the core later.
macro_rules! js_union {
    (@read $enum:ident, $from:ident, $tags:ident, $keys:ident;
        $(
            $(#[doc = $vdoc:literal])*
            $variant:ident {
                $(
                    $(#[doc = $fdoc:literal])*
                    $field:ident : $($opt:ident)? $fts:literal
                        $(= $read:path $(, $arg:expr)*)? => $write:path
                ),* $(,)?
            } $(= ($($shape:tt)+))?
        )*
        $(_ => $fallback:path)?
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
                    $( let $field = $($read(&f, stringify!($field) $(, $arg)*)?)?; )*
                    return Ok(crate::shape::js_union!(
                        @form $enum, $variant { $($field),* } $($($shape)+)?
                    ));
                }
                index += 1;
            )*
            let _ = (index, f);
            Err(::wasm_bindgen::JsValue::UNDEFINED)
        }
    };
    (@write $enum:ident, $to:ident;
        $(
            $(#[doc = $vdoc:literal])*
            $variant:ident {
                $(
                    $(#[doc = $fdoc:literal])*
                    $field:ident : $($opt:ident)? $fts:literal
                        $(= $read:path $(, $arg:expr)*)? => $write:path
                ),* $(,)?
            } $(= ($($shape:tt)+))?
        )*
        $(_ => $fallback:path)?
    ) => {
        /// Writes the union as a plain JS object with its `type` tag.
        pub(crate) fn $to(value: &$enum) -> Result<::wasm_bindgen::JsValue, ::wasm_bindgen::JsValue> {
            match value {
                $(
                    crate::shape::js_union!(@form $enum, $variant { $($field),* } $($($shape)+)?) =>
                        crate::object::tagged_object(
                            stringify!($variant),
                            &[$(stringify!($field)),*],
                            &[$(crate::object::Prop::prop($write($field)?)),*],
                        ),
                )*
                $(_ => $fallback(value),)?
            }
        }
    };
    (@ts $ts:ident; [$($doc:literal)*]
        $(
            $(#[doc = $vdoc:literal])*
            $variant:ident {
                $(
                    $(#[doc = $fdoc:literal])*
                    $field:ident : $($opt:ident)? $fts:literal
                        $(= $read:path $(, $arg:expr)*)? => $write:path
                ),* $(,)?
            } $(= ($($shape:tt)+))?
        )*
        $(_ => $fallback:path)?
    ) => {
        #[::wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
        const _: &'static str = concat!(
            crate::shape::ts_doc!("\n"; $($doc)*),
            "export type ", stringify!($ts), " =",
            $(
                "\n",
                crate::shape::ts_doc!("\n"; $($vdoc)*),
                "| { type: \"", stringify!($variant), "\"",
                $(
                    "; ",
                    crate::shape::ts_doc!(" "; $($fdoc)*),
                    stringify!($field), $(crate::shape::ts_optional!($opt),)? ": ", $fts,
                )*
                " }",
            )*
            ";\n"
        );
    };
    // A variant's Rust form, as an expression (reader) or a pattern (writer).
    (@form $enum:ident, $variant:ident { $($field:ident),* }) => {
        $enum::$variant { $($field),* }
    };
    (@form $enum:ident, $variant:ident { $($field:ident),* } $($shape:tt)+) => {
        $($shape)+
    };
    (
        $(#[doc = $doc:literal])*
        $ts:ident = $enum:ident;
        read $from:ident, $tags:ident, $keys:ident;
        write $to:ident;
        $($body:tt)*
    ) => {
        crate::shape::js_union!(@read $enum, $from, $tags, $keys; $($body)*);
        crate::shape::js_union!(@write $enum, $to; $($body)*);
        crate::shape::js_union!(@ts $ts; [$($doc)*] $($body)*);
    };
    (
        $(#[doc = $doc:literal])*
        $ts:ident = $enum:ident;
        write $to:ident;
        $($body:tt)*
    ) => {
        crate::shape::js_union!(@write $enum, $to; $($body)*);
        crate::shape::js_union!(@ts $ts; [$($doc)*] $($body)*);
    };
}

/// Declares a plain object (an `interface` in TypeScript), as [`js_union!`] declares a union:
///
/// ```text
/// js_object!(
///     /// Doc shown on the TypeScript interface.
///     TsName = RustStruct { ..RustStruct::default() };  // the `..rest` is optional
///     read reader_fn, KEYS;   // optional: reader_fn(value, path) -> Result<RustStruct, _>
///     write writer_fn;        // writer_fn(&RustStruct) -> Result<JsValue, JsValue>
///     /// Doc of the field.
///     field: "TsType" = Fields::u64, U64Arg::Term => bigint,
/// );
/// ```
macro_rules! js_object {
    (@read $struct:ident { $(.. $rest:expr)? }, $from:ident, $keys:ident;
        $(
            $(#[doc = $fdoc:literal])*
            $field:ident : $($opt:ident)? $fts:literal
                $(= $read:path $(, $arg:expr)*)? => $write:path
        ),* $(,)?
    ) => {
        const $keys: &[&str] = &[$(stringify!($field)),*];

        /// Reads the JS object (named `path` in errors).
        pub(crate) fn $from(
            value: &::wasm_bindgen::JsValue,
            path: impl Into<crate::error::Name>,
        ) -> Result<$struct, ::wasm_bindgen::JsValue> {
            let f = crate::read::Fields::new(value, path, $keys)?;
            Ok($struct {
                $( $field: $($read(&f, stringify!($field) $(, $arg)*)?)?, )*
                $(.. $rest)?
            })
        }
    };
    (@write $struct:ident { $(.. $rest:expr)? }, $to:ident;
        $(
            $(#[doc = $fdoc:literal])*
            $field:ident : $($opt:ident)? $fts:literal
                $(= $read:path $(, $arg:expr)*)? => $write:path
        ),* $(,)?
    ) => {
        /// Writes the value as a plain JS object.
        pub(crate) fn $to(value: &$struct) -> Result<::wasm_bindgen::JsValue, ::wasm_bindgen::JsValue> {
            crate::object::sparse_object(&[
                $( (stringify!($field), crate::object::Prop::prop($write(&value.$field)?)), )*
            ])
        }
    };
    (@ts $ts:ident; [$($doc:literal)*]
        $(
            $(#[doc = $fdoc:literal])*
            $field:ident : $($opt:ident)? $fts:literal
                $(= $read:path $(, $arg:expr)*)? => $write:path
        ),* $(,)?
    ) => {
        #[::wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
        const _: &'static str = concat!(
            crate::shape::ts_doc!("\n"; $($doc)*),
            "export interface ", stringify!($ts), " {",
            $(
                "\n  ",
                crate::shape::ts_doc!("\n  "; $($fdoc)*),
                stringify!($field), $(crate::shape::ts_optional!($opt),)? ": ", $fts, ";",
            )*
            "\n}\n"
        );
    };
    (
        $(#[doc = $doc:literal])*
        $ts:ident = $struct:ident { $($rest:tt)* };
        read $from:ident, $keys:ident;
        write $to:ident;
        $($body:tt)*
    ) => {
        crate::shape::js_object!(@read $struct { $($rest)* }, $from, $keys; $($body)*);
        crate::shape::js_object!(@write $struct { $($rest)* }, $to; $($body)*);
        crate::shape::js_object!(@ts $ts; [$($doc)*] $($body)*);
    };
    (
        $(#[doc = $doc:literal])*
        $ts:ident = $struct:ident { $($rest:tt)* };
        write $to:ident;
        $($body:tt)*
    ) => {
        crate::shape::js_object!(@write $struct { $($rest)* }, $to; $($body)*);
        crate::shape::js_object!(@ts $ts; [$($doc)*] $($body)*);
    };
}

pub(crate) use {js_object, js_union};
#[cfg_attr(not(target_arch = "wasm32"), allow(unused_imports))]
pub(crate) use {ts_doc, ts_optional};
