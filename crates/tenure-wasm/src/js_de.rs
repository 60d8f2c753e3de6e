//! One strict serde `Deserializer` over a `JsValue`: scenario and fault objects are read by
//! the simulator's own serde types straight from JS, with nothing copied in between.
//!
//! It holds a JS value to the rules of the scenario files (docs/bindings.md, "Input"): only
//! plain objects and arrays, finite numbers, `bigint`s within 64 bits, every list, object and
//! string measured before it is read (`crate::limits`), the whole input bounded in values
//! and depth; a getter or Proxy trap that throws is rethrown (`ERR_INPUT_THREW`, or
//! `ERR_REVOKED_PROXY`). A property whose value is `undefined` counts as absent and an
//! `undefined` array element as `null`, as `JSON.stringify` has them. Every error carries
//! the path of the value it is about (`scenario.faults[3].fault.node`) and the class serde
//! gave it ([`Class`]), from which `SimulationError` picks the stable `code`.

use core::cell::Cell;
use core::fmt;
use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use wasm_bindgen::{JsCast, JsValue};

use crate::error::{BindingError, describe};
use crate::limits::{MAX_OBJECT_KEYS, MAX_STRING, MAX_VALUES, scenario_list};
use crate::simulation_error::{SimulationError, Subject};

/// Deepest nesting an input may have (a real scenario is 5 deep); beyond it is a cycle.
const MAX_DEPTH: usize = 32;

/// Largest integer a JS `number` holds exactly (2^53 - 1).
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// What kind of refusal serde made, by the `serde::de::Error` method it called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// A wrong type, a missing key, an unknown name, a wrong length.
    Shape,
    /// A key the shape does not have.
    UnknownKey,
    /// A key given twice.
    Duplicate,
    /// A value of the right type out of range (serde's `invalid value`, a type's own check).
    Range,
}

/// Why a JS value did not read.
#[derive(Debug)]
pub(crate) enum DeError {
    /// A refusal of the serde types: its class, serde's message, and where (the path of the
    /// value, for a key error the path of its object).
    Serde {
        /// Which refusal.
        class: Class,
        /// serde's message (worded for the caller by `tenure_sim::serde_words`).
        message: String,
        /// The path, once known.
        path: Option<String>,
    },
    /// A refusal of the boundary itself (too large, not plain, not finite, thrown), complete.
    Boundary(SimulationError),
}

impl DeError {
    fn serde(class: Class, message: impl fmt::Display) -> DeError {
        DeError::Serde {
            class,
            message: message.to_string(),
            path: None,
        }
    }

    /// Sets the path if the error has none yet (the innermost value names itself first).
    fn at(mut self, here: &str) -> DeError {
        if let DeError::Serde { path, .. } = &mut self
            && path.is_none()
        {
            *path = Some(here.to_owned());
        }
        self
    }
}

impl fmt::Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeError::Serde { message, .. } => f.write_str(message),
            DeError::Boundary(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DeError {}

/// serde's wording of each refusal, from serde's own value error.
type Words = de::value::Error;

impl de::Error for DeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        // A type's own message (`Error::custom`) is a range refusal unless it says otherwise.
        let message = msg.to_string();
        let class = if message.starts_with("invalid type: ") {
            Class::Shape
        } else {
            Class::Range
        };
        DeError::serde(class, message)
    }
    fn invalid_type(unexp: de::Unexpected<'_>, exp: &dyn de::Expected) -> Self {
        let got = unexpected_words(&unexp);
        DeError::serde(
            Class::Shape,
            format_args!("invalid type: {got}, expected {exp}"),
        )
    }
    fn invalid_value(unexp: de::Unexpected<'_>, exp: &dyn de::Expected) -> Self {
        let got = unexpected_words(&unexp);
        DeError::serde(
            Class::Range,
            format_args!("invalid value: {got}, expected {exp}"),
        )
    }
    fn invalid_length(len: usize, exp: &dyn de::Expected) -> Self {
        DeError::serde(Class::Shape, Words::invalid_length(len, exp))
    }
    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        DeError::serde(Class::Shape, Words::unknown_variant(variant, expected))
    }
    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        DeError::serde(Class::UnknownKey, Words::unknown_field(field, expected))
    }
    fn missing_field(field: &'static str) -> Self {
        DeError::serde(Class::Shape, Words::missing_field(field))
    }
    fn duplicate_field(field: &'static str) -> Self {
        DeError::serde(Class::Duplicate, Words::duplicate_field(field))
    }
}

/// serde's words for `unexp`: its `Display` in the search module, which formats floats in
/// Rust anyway (the failover plot).
#[cfg(not(feature = "sim"))]
fn unexpected_words(unexp: &de::Unexpected<'_>) -> String {
    match *unexp {
        de::Unexpected::Float(f) if is_wide_whole(f) => wide_whole_words(&unexp.to_string()),
        _ => unexp.to_string(),
    }
}

/// A whole number past 2^53 - 1: a JS number reads it as a float, and may not hold the one
/// written (2 ** 60 + 1 reads as 2 ** 60), so where a whole number is wanted the trouble is
/// its precision, not a fraction.
fn is_wide_whole(f: f64) -> bool {
    f.fract() == 0.0 && f.abs() > MAX_SAFE
}

/// The words for such a number, `shown` as the message writes numbers.
#[inline(never)]
fn wide_whole_words(shown: &str) -> String {
    format!(
        "{shown}, above 2 ** 53 - 1, where a JS number no longer holds every whole number \
         exactly (a bigint does)"
    )
}

/// serde's words for `unexp` (its `Display`), with a float written by
/// `tenure_sim::units::float_text`: serde's own `Display` formats a float in Rust, which
/// would bring Rust's float formatting into the sim module for this one phrase.
#[cfg(feature = "sim")]
#[inline(never)]
fn unexpected_words(unexp: &de::Unexpected<'_>) -> String {
    use de::Unexpected;
    match *unexp {
        Unexpected::Float(f) if is_wide_whole(f) => {
            wide_whole_words(&tenure_sim::units::float_text(f))
        }
        Unexpected::Float(f) => {
            let text = tenure_sim::units::float_text(f);
            // serde's `WithDecimalPoint`: a finite float is written with a decimal point.
            let point = if f.is_finite() && !text.contains('.') {
                ".0"
            } else {
                ""
            };
            format!("floating point `{text}{point}`")
        }
        Unexpected::Bool(b) => format!("boolean `{b}`"),
        Unexpected::Unsigned(i) => format!("integer `{i}`"),
        Unexpected::Signed(i) => format!("integer `{i}`"),
        Unexpected::Char(c) => format!("character `{c}`"),
        Unexpected::Str(s) => format!("string {s:?}"),
        Unexpected::Bytes(_) => String::from("byte array"),
        Unexpected::Unit => String::from("unit value"),
        Unexpected::Option => String::from("Option value"),
        Unexpected::NewtypeStruct => String::from("newtype struct"),
        Unexpected::Seq => String::from("sequence"),
        Unexpected::Map => String::from("map"),
        Unexpected::Enum => String::from("enum"),
        Unexpected::UnitVariant => String::from("unit variant"),
        Unexpected::NewtypeVariant => String::from("newtype variant"),
        Unexpected::TupleVariant => String::from("tuple variant"),
        Unexpected::StructVariant => String::from("struct variant"),
        Unexpected::Other(other) => other.to_owned(),
    }
}

/// Reads `T` from `value`, whose path is `root` (`scenario`, `fault`, `config`); `subject`
/// picks the codes of the boundary's own refusals. `default` is a top-level key and the value
/// it takes when the object lacks it (a fresh `seed`).
pub(crate) fn from_js<T: de::DeserializeOwned>(
    value: &JsValue,
    root: &str,
    subject: Subject,
    default: Option<(&'static str, JsValue)>,
) -> Result<T, DeError> {
    let budget = Cell::new(MAX_VALUES);
    T::deserialize(JsDe {
        value: value.clone(),
        path: root.to_owned(),
        depth: 0,
        budget: &budget,
        subject,
        default,
    })
}

/// A JS value read and checked, before serde's visitor sees it.
enum Read {
    Unit,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Str(String),
    Seq(Vec<JsValue>),
    Map(js_sys::Array),
}

/// One JS value at `path`.
struct JsDe<'a> {
    value: JsValue,
    path: String,
    depth: usize,
    budget: &'a Cell<usize>,
    subject: Subject,
    default: Option<(&'static str, JsValue)>,
}

impl<'a> JsDe<'a> {
    fn child(&self, value: JsValue, path: String) -> JsDe<'a> {
        JsDe {
            value,
            path,
            depth: self.depth.saturating_add(1),
            budget: self.budget,
            subject: self.subject,
            default: None,
        }
    }

    fn boundary(e: BindingError) -> DeError {
        DeError::Boundary(SimulationError::Boundary(e))
    }

    fn thrown(&self, t: crate::js::Thrown, path: &str) -> DeError {
        DeError::Boundary(SimulationError::Thrown(t.into_js(path)))
    }

    fn too_large(path: &str, len: f64, unit: &'static str, max: usize) -> DeError {
        Self::boundary(BindingError::TooLarge {
            arg: path.to_owned().into(),
            len,
            unit,
            max,
        })
    }

    /// Counts this value against the input's budget; refuses it past [`MAX_DEPTH`].
    fn enter(&self) -> Result<(), DeError> {
        let left = self.budget.get();
        if left == 0 {
            #[allow(clippy::cast_precision_loss)]
            let len = (MAX_VALUES + 1) as f64;
            return Err(Self::too_large(
                self.subject.name(),
                len,
                "values (or more)",
                MAX_VALUES,
            ));
        }
        self.budget.set(left - 1);
        if self.depth > MAX_DEPTH {
            return Err(DeError::Boundary(SimulationError::Shape {
                subject: self.subject,
                message: format!(
                    "{} is nested more than {MAX_DEPTH} deep (a cycle?)",
                    self.path
                ),
            }));
        }
        Ok(())
    }

    fn invalid(&self, message: String) -> DeError {
        DeError::Boundary(SimulationError::Invalid {
            subject: self.subject,
            message,
        })
    }

    /// What the value is, with every check made: not generic, so it is not copied for each
    /// type serde reads (the generic part, [`JsDe::any`], is a small match).
    #[inline(never)]
    fn read(&self) -> Result<Read, DeError> {
        self.enter()?;
        let v = &self.value;
        if v.is_null() || v.is_undefined() {
            return Ok(Read::Unit);
        }
        if let Some(b) = v.as_bool() {
            return Ok(Read::Bool(b));
        }
        if let Some(n) = v.as_f64() {
            return self.number(n);
        }
        if v.is_bigint() {
            return self.bigint();
        }
        match crate::js::bounded_string(v, MAX_STRING) {
            Ok(Some(s)) => return Ok(Read::Str(s)),
            Ok(None) => {}
            Err(len) => {
                return Err(Self::too_large(
                    &self.path,
                    f64::from(len),
                    "characters",
                    MAX_STRING,
                ));
            }
        }
        if crate::js::is_array(v).map_err(|t| self.thrown(t, &self.path))? {
            let name: crate::error::Name = self.path.clone().into();
            let count = crate::read::checked_length(v, &name, scenario_list(&self.path))
                .map_err(|e| DeError::Boundary(SimulationError::Thrown(e)))?;
            let items = crate::js::elements(v, count).map_err(|t| self.thrown(t, &self.path))?;
            return Ok(Read::Seq(items));
        }
        if v.is_object() && !v.is_function() {
            if !crate::js::is_plain_object(v).map_err(|t| self.thrown(t, &self.path))? {
                return Err(Self::boundary(BindingError::NotObject {
                    arg: self.path.clone().into(),
                    got: describe(v),
                }));
            }
            let keys = crate::js::own_keys(v).map_err(|t| self.thrown(t, &self.path))?;
            if usize::try_from(keys.length()).map_or(true, |n| n > MAX_OBJECT_KEYS) {
                return Err(Self::too_large(
                    &self.path,
                    f64::from(keys.length()),
                    "keys",
                    MAX_OBJECT_KEYS,
                ));
            }
            return Ok(Read::Map(keys));
        }
        Err(DeError::Boundary(SimulationError::Shape {
            subject: self.subject,
            message: format!(
                "{} must be JSON data (an object, array, string, number, boolean or null), got {}",
                self.path,
                describe(v)
            ),
        }))
    }

    fn any<'de, V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, DeError> {
        match self.read()? {
            Read::Unit => visitor.visit_unit(),
            Read::Bool(b) => visitor.visit_bool(b),
            Read::U64(n) => visitor.visit_u64(n),
            Read::I64(n) => visitor.visit_i64(n),
            Read::F64(n) => visitor.visit_f64(n),
            Read::Str(s) => visitor.visit_string(s),
            Read::Seq(items) => visitor.visit_seq(Seq {
                items: items.into_iter(),
                index: 0,
                parent: &self,
            }),
            Read::Map(keys) => {
                let default = self.default.take();
                visitor.visit_map(Map {
                    keys: keys.iter(),
                    value: None,
                    default,
                    parent: &self,
                })
            }
        }
    }

    fn number(&self, n: f64) -> Result<Read, DeError> {
        if !n.is_finite() {
            return Err(self.invalid(format!(
                "{} must be a finite number, got {}",
                self.path,
                crate::error::number_text(n)
            )));
        }
        // Safe integers are integers, so whole-number fields accept them; the rest floats.
        if n.fract() == 0.0 && n.abs() <= MAX_SAFE {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            return Ok(if n >= 0.0 {
                Read::U64(n as u64)
            } else {
                Read::I64(n as i64)
            });
        }
        Ok(Read::F64(n))
    }

    fn bigint(&self) -> Result<Read, DeError> {
        if let Ok(v) = u64::try_from(self.value.clone()) {
            return Ok(Read::U64(v));
        }
        if let Ok(v) = i64::try_from(self.value.clone()) {
            return Ok(Read::I64(v));
        }
        let digits = self
            .value
            .dyn_ref::<js_sys::BigInt>()
            .and_then(|b| b.to_string(10).ok())
            .map(String::from)
            .unwrap_or_default();
        Err(self.invalid(format!(
            "{} must fit in 64 bits, from 0n to 2n ** 64n - 1n, got {digits}n",
            self.path
        )))
    }

    /// An object where the shape has one: an array (which serde would read as a struct) is
    /// refused as not plain. Only the visitor's `visit_map` is called: any other value is
    /// refused as its default `visit_*` would refuse it ([`unexpected`]), so a struct's
    /// derived `visit_seq` (its fields read in order, which is never wanted) is not built.
    fn object<'de, V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, DeError> {
        if crate::js::is_array(&self.value).map_err(|t| self.thrown(t, &self.path))? {
            return Err(Self::boundary(BindingError::NotObject {
                arg: self.path.clone().into(),
                got: String::from("array"),
            }));
        }
        match self.read()? {
            Read::Map(keys) => {
                let default = self.default.take();
                visitor.visit_map(Map {
                    keys: keys.iter(),
                    value: None,
                    default,
                    parent: &self,
                })
            }
            other => Err(unexpected(&other, &visitor)),
        }
    }
}

/// serde's refusal of `read` by a visitor that does not take it (what a `Visitor`'s default
/// `visit_bool`, `visit_u64`, `visit_str`, ... return): not generic, so it is built once.
#[inline(never)]
fn unexpected(read: &Read, expected: &dyn de::Expected) -> DeError {
    use de::{Error, Unexpected};
    let unexp = match read {
        Read::Unit => Unexpected::Unit,
        Read::Bool(b) => Unexpected::Bool(*b),
        Read::U64(n) => Unexpected::Unsigned(*n),
        Read::I64(n) => Unexpected::Signed(*n),
        Read::F64(n) => Unexpected::Float(*n),
        Read::Str(s) => Unexpected::Str(s),
        Read::Seq(_) => Unexpected::Seq,
        Read::Map(_) => Unexpected::Map,
    };
    DeError::invalid_type(unexp, expected)
}

impl<'de> de::Deserializer<'de> for JsDe<'_> {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let path = self.path.clone();
        self.any(visitor).map_err(|e| e.at(&path))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if self.value.is_null() || self.value.is_undefined() {
            return visitor.visit_none();
        }
        let path = self.path.clone();
        visitor.visit_some(self).map_err(|e| e.at(&path))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        let path = self.path.clone();
        self.object(visitor).map_err(|e| e.at(&path))
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let path = self.path.clone();
        self.object(visitor).map_err(|e| e.at(&path))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        // A unit variant is its name, a string; anything else is refused by the visitor.
        let path = self.path.clone();
        match crate::js::bounded_string(&self.value, MAX_STRING) {
            Ok(Some(s)) => {
                self.enter()?;
                visitor
                    .visit_enum(IntoDeserializer::<DeError>::into_deserializer(s))
                    .map_err(|e| e.at(&path))
            }
            _ => self.any(visitor).map_err(|e| e.at(&path)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        // A value serde skips is not read at all: no getter runs, no cycle is walked.
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct identifier
    }
}

/// The elements of an array, read already (their number was checked first).
struct Seq<'p, 'a> {
    items: std::vec::IntoIter<JsValue>,
    index: usize,
    parent: &'p JsDe<'a>,
}

impl<'de> SeqAccess<'de> for Seq<'_, '_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DeError> {
        let Some(item) = self.items.next() else {
            return Ok(None);
        };
        let path = format!("{}[{}]", self.parent.path, self.index);
        self.index += 1;
        // Inside arrays `undefined` is `null`, as JSON.stringify has it.
        let item = if item.is_undefined() {
            JsValue::NULL
        } else {
            item
        };
        // A type's own check after its value was read (`deserialize_with`) names it too.
        seed.deserialize(self.parent.child(item, path.clone()))
            .map(Some)
            .map_err(|e| e.at(&path))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// The own enumerable string keys of a plain object, each value read through its getter
/// when its key is reached (a key whose value is `undefined` is skipped).
struct Map<'p, 'a> {
    keys: js_sys::ArrayIter<'p>,
    value: Option<(JsValue, String)>,
    default: Option<(&'static str, JsValue)>,
    parent: &'p JsDe<'a>,
}

impl<'de> MapAccess<'de> for Map<'_, '_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DeError> {
        for key in self.keys.by_ref() {
            let Ok(Some(name)) = crate::js::bounded_string(&key, MAX_STRING) else {
                continue;
            };
            let path = format!("{}.{name}", self.parent.path);
            let value = crate::js::get(&self.parent.value, &key)
                .map_err(|t| self.parent.thrown(t, &path))?;
            if value.is_undefined() {
                continue;
            }
            if self.default.as_ref().is_some_and(|(k, _)| *k == name) {
                self.default = None;
            }
            self.value = Some((value, path));
            return seed
                .deserialize(IntoDeserializer::<DeError>::into_deserializer(name))
                .map(Some);
        }
        if let Some((name, value)) = self.default.take() {
            self.value = Some((value, format!("{}.{name}", self.parent.path)));
            return seed
                .deserialize(IntoDeserializer::<DeError>::into_deserializer(name))
                .map(Some);
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let (value, path) = self
            .value
            .take()
            .ok_or_else(|| <DeError as de::Error>::custom("a value asked for before its key"))?;
        seed.deserialize(self.parent.child(value, path.clone()))
            .map_err(|e| e.at(&path))
    }
}
