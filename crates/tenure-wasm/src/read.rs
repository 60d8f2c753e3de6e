//! Reading plain JS objects (configs, messages, requests) field by field, strictly.
//!
//! A [`Fields`] reads an object's own enumerable keys once, rejects any key its shape does
//! not define (`ERR_UNKNOWN_KEY`, so a typo such as `ttl` for `ttl_ms` is caught, not
//! ignored), and then hands out typed fields through the checked conversions of
//! [`crate::convert`]. Every error names the field's path (`config.peers[1]`, `msg.term`);
//! the path string is built only when an error is reported. An absent key and a key whose
//! value is `undefined` are the same thing.
//!
//! Objects must be plain (`{...}` or `Object.create(null)`: a `Map`, `Date`, boxed primitive
//! or array is `ERR_OBJECT_TYPE`); lists and strings are measured against `crate::limits`
//! before anything is read (`ERR_TOO_LARGE`); a revoked Proxy is `ERR_REVOKED_PROXY`.

use js_sys::{Array, Object};

use crate::js::{self, Length};
use crate::limits::MAX_STRING;
use crate::object::{is_name, name};
use wasm_bindgen::{JsCast, JsValue};

use crate::convert::{exact_micros_from_millis, u64_from_bigint_named};
use crate::error::{BindingError, Name, U64Arg, describe};
use tenure::{Duration, Instant};

/// The largest clock drift a machine config takes, in parts per million: the configs refuse
/// 1,000,000 and more (a clock that may stop or run backwards), so the reader names this range
/// rather than a `u32`'s.
pub(crate) const MAX_DRIFT_PPM: u64 = 999_999;

/// The own enumerable keys of one object, matched against the keys its shape defines.
pub(crate) struct Fields {
    path: Name,
    known: &'static [&'static str],
    slots: Vec<JsValue>,
}

/// Checks that `value` is a plain object (not null, an array, a function, a `Map`, `Date`,
/// boxed primitive or class instance).
///
/// Errors: `ERR_OBJECT_TYPE`; `ERR_REVOKED_PROXY`; a throwing `getPrototypeOf` trap's
/// exception.
fn object<'v>(value: &'v JsValue, path: &Name) -> Result<&'v Object, JsValue> {
    if js::is_plain_object(value).map_err(|t| t.into_js(path))? {
        Ok(value.unchecked_ref())
    } else {
        Err(BindingError::NotObject {
            arg: path.clone(),
            got: describe(value),
        }
        .into())
    }
}

impl Fields {
    /// Reads `value` as an object whose keys are all in `known`.
    ///
    /// Errors: not an object -> `ERR_OBJECT_TYPE`; a key outside `known` ->
    /// `ERR_UNKNOWN_KEY`; a throwing getter or proxy trap is rethrown as is.
    pub(crate) fn new(
        value: &JsValue,
        path: impl Into<Name>,
        known: &'static [&'static str],
    ) -> Result<Fields, JsValue> {
        let path = path.into();
        let obj = object(value, &path)?;
        // One slot per known key, plus a last one that stays `undefined` (see `raw`).
        let mut slots = vec![JsValue::UNDEFINED; known.len().saturating_add(1)];
        let keys = js::own_keys(obj).map_err(|t| t.into_js(&path))?;
        for key in keys.iter() {
            // Compared as JS strings (no copy into Rust); only an unknown key is read out.
            let Some(index) = known.iter().position(|k| is_name(&key, k)) else {
                // A key longer than any known one is unknown: named by its start only.
                let name = match js::bounded_string(&key, 64) {
                    Ok(name) => name.unwrap_or_default(),
                    Err(_) => describe(&key),
                };
                return Err(BindingError::UnknownKey {
                    object: path,
                    key: name,
                    known,
                }
                .into());
            };
            if let Some(slot) = slots.get_mut(index) {
                *slot = js::get(obj, &key).map_err(|t| t.into_js(&path))?;
            }
        }
        Ok(Fields { path, known, slots })
    }

    /// Reads a discriminated union: `value.type` picks one of `variants` (its tag and its
    /// keys, which must include `"type"`). Returns the variant's index and its fields.
    ///
    /// Errors: as [`new`](Self::new); a missing or unknown `type` -> `ERR_VARIANT`.
    pub(crate) fn tagged(
        value: &JsValue,
        path: impl Into<Name>,
        tags: &'static [&'static str],
        keys: &'static [&'static [&'static str]],
    ) -> Result<(usize, Fields), JsValue> {
        let path = path.into();
        let obj = object(value, &path)?;
        let tag = js::get(obj, &name("type")).map_err(|t| t.into_js(&path))?;
        let found = tags.iter().position(|t| is_name(&tag, t));
        let (Some(index), Some(known)) = (found, found.and_then(|i| keys.get(i))) else {
            return Err(BindingError::BadVariant {
                arg: Name::Owned(format!("{path}.type")),
                expected: tags,
                got: describe(&tag),
            }
            .into());
        };
        Ok((index, Fields::new(value, path, known)?))
    }

    /// The path of `key` in messages: `config.ttl_ms`.
    pub(crate) fn path_of(&self, key: &str) -> Name {
        Name::Owned(format!("{}.{key}", self.path))
    }

    /// The raw value of `key` (`undefined` when absent).
    pub(crate) fn raw(&self, key: &'static str) -> &JsValue {
        // A key outside `known` (a binding bug) reads the trailing `undefined` slot; the
        // index is always in bounds since `slots.len() == known.len() + 1`.
        let index = self.known.iter().position(|k| *k == key);
        &self.slots[index.unwrap_or(self.known.len())]
    }

    /// `Some(value)` unless `key` is absent, `undefined` or `null`.
    fn present(&self, key: &'static str) -> Option<&JsValue> {
        let value = self.raw(key);
        (!value.is_undefined() && !value.is_null()).then_some(value)
    }

    /// The value of a required `key`: `ERR_MISSING_KEY` when absent or `undefined`.
    fn required(&self, key: &'static str) -> Result<&JsValue, BindingError> {
        let value = self.raw(key);
        if value.is_undefined() {
            Err(BindingError::MissingKey {
                arg: self.path_of(key),
            })
        } else {
            Ok(value)
        }
    }

    /// A required `u64` field (a `bigint`).
    pub(crate) fn u64(&self, key: &'static str, arg: U64Arg) -> Result<u64, BindingError> {
        let value = self.required(key)?;
        u64_from_bigint_named(value, arg, "").map_err(|e| e.with_name(self.path_of(key)))
    }

    /// An optional `u64` field: absent, `undefined` or `null` is `None`.
    pub(crate) fn opt_u64(
        &self,
        key: &'static str,
        arg: U64Arg,
    ) -> Result<Option<u64>, BindingError> {
        match self.present(key) {
            None => Ok(None),
            Some(value) => u64_from_bigint_named(value, arg, "")
                .map(Some)
                .map_err(|e| e.with_name(self.path_of(key))),
        }
    }

    /// A required duration field in milliseconds.
    pub(crate) fn duration(&self, key: &'static str) -> Result<Duration, BindingError> {
        let value = self.required(key)?;
        millis(value)
            .map(Duration::from_micros)
            .map_err(|e| e.with_name(self.path_of(key)))
    }

    /// An optional duration field in milliseconds (absent, `undefined` or `null`: `None`).
    pub(crate) fn opt_duration(&self, key: &'static str) -> Result<Option<Duration>, BindingError> {
        match self.present(key) {
            None => Ok(None),
            Some(value) => millis(value)
                .map(|us| Some(Duration::from_micros(us)))
                .map_err(|e| e.with_name(self.path_of(key))),
        }
    }

    /// A required instant field in milliseconds (`now_ms`-like).
    #[allow(dead_code)] // Kept beside `duration` for data shapes carrying times.
    pub(crate) fn instant(&self, key: &'static str) -> Result<Instant, BindingError> {
        let value = self.required(key)?;
        millis(value)
            .map(Instant::from_micros)
            .map_err(|e| e.with_name(self.path_of(key)))
    }

    /// A required boolean field.
    pub(crate) fn bool(&self, key: &'static str) -> Result<bool, BindingError> {
        let value = self.required(key)?;
        value.as_bool().ok_or_else(|| BindingError::NotBoolean {
            arg: self.path_of(key),
            got: describe(value),
        })
    }

    /// An optional boolean field.
    pub(crate) fn opt_bool(&self, key: &'static str) -> Result<Option<bool>, BindingError> {
        match self.present(key) {
            None => Ok(None),
            Some(_) => self.bool(key).map(Some),
        }
    }

    /// A required string field of at most [`MAX_STRING`] UTF-16 code units.
    pub(crate) fn string(&self, key: &'static str) -> Result<String, BindingError> {
        let value = self.required(key)?;
        bounded(value, self.path_of(key))
    }

    /// An optional string field.
    pub(crate) fn opt_string(&self, key: &'static str) -> Result<Option<String>, BindingError> {
        match self.present(key) {
            None => Ok(None),
            Some(_) => self.string(key).map(Some),
        }
    }

    /// An optional integer `number` field in `0..=max` (counts, ppm).
    pub(crate) fn opt_int(&self, key: &'static str, max: u64) -> Result<Option<u64>, BindingError> {
        self.opt_int_from(key, 0, max)
    }

    /// [`Self::opt_int`] for a field whose least accepted value is `min` (1 where the
    /// machine refuses 0), so the stated range is what is accepted.
    pub(crate) fn opt_int_from(
        &self,
        key: &'static str,
        min: u64,
        max: u64,
    ) -> Result<Option<u64>, BindingError> {
        let Some(value) = self.present(key) else {
            return Ok(None);
        };
        let Some(n) = value.as_f64() else {
            return Err(BindingError::NotInteger {
                arg: self.path_of(key),
                got: describe(value),
            });
        };
        // `max` is at most 2^53 here, so the comparison in f64 is exact.
        #[allow(clippy::cast_precision_loss)]
        let in_range = n.fract() == 0.0 && n >= min as f64 && n <= max as f64;
        if !in_range {
            return Err(BindingError::IntegerOutOfRange {
                arg: self.path_of(key),
                min,
                value: n,
                max,
            });
        }
        // Integral and in 0..=max: the cast is exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Ok(Some(n as u64))
    }

    /// A string field restricted to `expected`; returns the index of the value.
    pub(crate) fn variant(
        &self,
        key: &'static str,
        expected: &'static [&'static str],
    ) -> Result<usize, BindingError> {
        let value = self.required(key)?;
        expected
            .iter()
            .position(|e| is_name(value, e))
            .ok_or_else(|| BindingError::BadVariant {
                arg: self.path_of(key),
                expected,
                got: describe(value),
            })
    }

    /// A required array field (its length is checked when its elements are read: [`each`]).
    pub(crate) fn array(&self, key: &'static str) -> Result<Array, JsValue> {
        let value = self.required(key)?;
        as_array(value, self.path_of(key))
    }

    /// An optional array field (absent, `undefined` or `null`: `None`).
    pub(crate) fn opt_array(&self, key: &'static str) -> Result<Option<Array>, JsValue> {
        match self.present(key) {
            None => Ok(None),
            Some(value) => as_array(value, self.path_of(key)).map(Some),
        }
    }
}

/// `value` as an array named `name`; `ERR_ARRAY_TYPE` otherwise.
pub(crate) fn as_array(value: &JsValue, name: Name) -> Result<Array, JsValue> {
    if js::is_array(value).map_err(|t| t.into_js(&name))? {
        Ok(value.clone().unchecked_into())
    } else {
        Err(BindingError::NotArray {
            arg: name,
            got: describe(value),
        }
        .into())
    }
}

/// `value` as a string of at most [`MAX_STRING`] code units, named `name` in errors.
pub(crate) fn bounded(value: &JsValue, name: Name) -> Result<String, BindingError> {
    match js::bounded_string(value, MAX_STRING) {
        Ok(Some(s)) => match js::lone_surrogate(value, &s) {
            Some(at) => Err(BindingError::LoneSurrogate { arg: name, at }),
            None => Ok(s),
        },
        Ok(None) => Err(BindingError::NotString {
            arg: name,
            got: describe(value),
        }),
        Err(len) => Err(BindingError::TooLarge {
            arg: name,
            len: f64::from(len),
            unit: "characters",
            max: MAX_STRING,
        }),
    }
}

/// Milliseconds to whole microseconds, exactly; the caller names the field.
fn millis(value: &JsValue) -> Result<u64, BindingError> {
    exact_micros_from_millis(value, "")
}

/// How many elements `array` (named `path`) reports, refused with `ERR_TOO_LARGE` above
/// `max` (and `ERR_ARRAY_TYPE` for a length no array has) before any element is read.
pub(crate) fn checked_length(array: &JsValue, path: &Name, max: usize) -> Result<u32, JsValue> {
    let too_large = |len: f64| -> JsValue {
        BindingError::TooLarge {
            arg: path.clone(),
            len,
            unit: "elements",
            max,
        }
        .into()
    };
    match js::length(array).map_err(|t| t.into_js(path))? {
        Length::Valid(n) if usize::try_from(n).is_ok_and(|n| n <= max) => Ok(n),
        Length::Valid(n) => Err(too_large(f64::from(n))),
        #[allow(clippy::cast_precision_loss)]
        Length::Invalid(n) if n > max as f64 => Err(too_large(n)),
        Length::Invalid(_) | Length::NotNumber => Err(BindingError::NotArray {
            arg: path.clone(),
            got: String::from("an array-like object whose length is not a valid array length"),
        }
        .into()),
    }
}

/// Reads every element of `array` (at most `max`, else `ERR_TOO_LARGE` before any is read)
/// with `read(index_path, element)`.
pub(crate) fn each<T>(
    array: &Array,
    path: &Name,
    max: usize,
    mut read: impl FnMut(Name, &JsValue) -> Result<T, JsValue>,
) -> Result<Vec<T>, JsValue> {
    let count = checked_length(array, path, max)?;
    let elements = js::elements(array, count).map_err(|t| t.into_js(path))?;
    let mut out = Vec::with_capacity(elements.len());
    for (i, element) in elements.iter().enumerate() {
        out.push(read(Name::Owned(format!("{path}[{i}]")), element)?);
    }
    Ok(out)
}
