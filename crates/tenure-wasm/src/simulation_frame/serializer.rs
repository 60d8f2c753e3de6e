//! The frame's `serde::Serializer` (crate::simulation_frame): the layout of the tape for
//! every serde form the frame writes through serde (metrics, store, resource, promised
//! labels, blocked links, drop reasons). Values only, in field order, no names.

use serde::ser::{self, Serialize};

use super::{FrameError, Tape};

type R = Result<(), FrameError>;

impl ser::Serializer for &mut Tape<'_> {
    type Ok = ();
    type Error = FrameError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = ser::Impossible<(), FrameError>;
    type SerializeMap = ser::Impossible<(), FrameError>;
    type SerializeStruct = Self;
    type SerializeStructVariant = ser::Impossible<(), FrameError>;

    fn serialize_bool(self, v: bool) -> R {
        self.num(if v { 1.0 } else { 0.0 })
    }
    fn serialize_i8(self, v: i8) -> R {
        self.num(f64::from(v))
    }
    fn serialize_i16(self, v: i16) -> R {
        self.num(f64::from(v))
    }
    fn serialize_i32(self, v: i32) -> R {
        self.num(f64::from(v))
    }
    fn serialize_i64(self, v: i64) -> R {
        self.num(v as f64)
    }
    fn serialize_u8(self, v: u8) -> R {
        self.num(f64::from(v))
    }
    fn serialize_u16(self, v: u16) -> R {
        self.num(f64::from(v))
    }
    fn serialize_u32(self, v: u32) -> R {
        self.num(f64::from(v))
    }
    fn serialize_u64(self, v: u64) -> R {
        self.num(v as f64)
    }
    fn serialize_f32(self, v: f32) -> R {
        self.num(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> R {
        self.num(v)
    }
    fn serialize_char(self, v: char) -> R {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> R {
        let k = self.0.label(v)?;
        self.num(k)
    }
    fn serialize_bytes(self, _: &[u8]) -> R {
        Err(FrameError("bytes have no frame form".into()))
    }
    fn serialize_none(self) -> R {
        self.num(0.0)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> R {
        self.num(1.0)?;
        v.serialize(self)
    }
    fn serialize_unit(self) -> R {
        self.num(0.0)
    }
    fn serialize_unit_struct(self, _: &'static str) -> R {
        self.num(0.0)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> R {
        let k = self.0.static_label(variant)?;
        self.num(k)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> R {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> R {
        Err(FrameError(
            "enum variants with data have no frame form".into(),
        ))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, FrameError> {
        let len = len.ok_or_else(|| FrameError("a sequence of unknown length".into()))?;
        self.num(len as f64)?;
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, FrameError> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, FrameError> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, FrameError> {
        Err(FrameError(
            "enum variants with data have no frame form".into(),
        ))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, FrameError> {
        Err(FrameError("maps have no frame form".into()))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, FrameError> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, FrameError> {
        Err(FrameError(
            "enum variants with data have no frame form".into(),
        ))
    }
}

/// The compound serializers: each element or field is written in order, no names, and the
/// end writes nothing (`$key` is the field name a struct's `serialize_field` takes).
macro_rules! in_order {
    ($($trait:ident::$method:ident($($key:ty)?) { $($extra:tt)* })*) => {$(
        impl ser::$trait for &mut Tape<'_> {
            type Ok = ();
            type Error = FrameError;
            fn $method<T: Serialize + ?Sized>(&mut self, $(_: $key,)? v: &T) -> R {
                v.serialize(&mut **self)
            }
            fn end(self) -> R {
                Ok(())
            }
            $($extra)*
        }
    )*};
}

in_order! {
    SerializeSeq::serialize_element() {}
    SerializeTuple::serialize_element() {}
    SerializeTupleStruct::serialize_field() {}
    SerializeStruct::serialize_field(&'static str) {
        fn skip_field(&mut self, _: &'static str) -> R {
            // A skipped field would shift every later one: the reader expects them all.
            Err(FrameError("a skipped field has no frame form".into()))
        }
    }
}
