//! Reading a [`Fault`] from a map tagged by `"type"`, by hand.
//!
//! serde's derive for an internally tagged enum buffers the whole object into its private
//! `Content` tree before it knows the variant, then reads the variant from that buffer: the
//! key path is lost inside (an error in `node` names only the fault), and the buffering code
//! is most of the fault reader's size in the wasm module. This reader makes one pass instead:
//! every key a fault type defines has one type across all faults (`node` is always a node id,
//! `from` always a list of processes, ...), so each value is read into its slot as it comes,
//! under its own key, and the variant is assembled once `type` is known.
//!
//! What it accepts and refuses is the derive's: `type` anywhere in the object; unknown keys,
//! keys of another fault type, repeated keys and missing keys refused with serde's own
//! phrases (`unknown field`, `duplicate field`, `missing field`, `unknown variant`), so
//! [`crate::serde_words`] words them as for any other object. One difference: `type` must be
//! a string (the derive also took a variant's index, `"type": 0` for a crash).

use super::Fault;
use crate::process::Proc;
use crate::units::{Ms, Probability, SignedMs};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, Visitor};
use std::fmt;
use tenure::NodeId;

/// Every `type`, in declaration order (serde's `unknown variant` lists them).
const TYPES: &[&str] = &[
    "crash",
    "restart",
    "pause",
    "pause-after-check",
    "partition",
    "partition-one-way",
    "isolate",
    "heal",
    "link-loss",
    "link-duplicate",
    "link-latency",
    "clock-offset",
    "clock-drift",
    "clock-jump",
    "store-outage",
    "drop-message",
    "propose",
];

/// The keys of the fault type at `TYPES[kind]`, besides `type`, in declaration order.
fn keys_of(kind: usize) -> &'static [&'static str] {
    const LINK: &[&str] = &["from", "to", "probability"];
    match kind {
        0 | 1 => &["node"],
        2 => &["target", "duration_ms"],
        3 => &["node", "duration_ms"],
        4 => &["groups"],
        5 => &["from", "to"],
        6 => &["nodes"],
        8 | 9 => LINK,
        10 => &["from", "to", "min_ms", "max_ms"],
        11 => &["target", "offset_ms"],
        12 => &["target", "ppm"],
        13 => &["target", "by_ms"],
        14 => &["duration_ms"],
        15 => &["id"],
        16 => &["node", "command"],
        _ => &[], // heal
    }
}

/// Declares the slots (one per key any fault type has) and how a key selects its slot.
macro_rules! slots {
    ($($key:ident: $ty:ty),* $(,)?) => {
        /// One `Option` per key; `seen` keeps the order keys came in (for the first stray).
        #[derive(Default)]
        struct Slots {
            $($key: Option<$ty>,)*
            seen: Vec<&'static str>,
        }

        impl Slots {
            /// Reads the value of `key` into its slot; `Ok(false)` if no fault has `key`.
            fn read<'de, A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
                match key {
                    $(stringify!($key) => {
                        if self.$key.is_some() {
                            return Err(de::Error::duplicate_field(stringify!($key)));
                        }
                        self.$key = Some(map.next_value()?);
                        self.seen.push(stringify!($key));
                        Ok(true)
                    })*
                    _ => Ok(false),
                }
            }
        }
    };
}

slots! {
    node: NodeId,
    target: Proc,
    duration_ms: Ms,
    groups: Vec<Vec<Proc>>,
    from: Vec<Proc>,
    to: Vec<Proc>,
    nodes: Vec<Proc>,
    probability: Probability,
    min_ms: Ms,
    max_ms: Ms,
    offset_ms: SignedMs,
    ppm: i32,
    by_ms: Ms,
    id: u64,
    command: u64,
}

/// The `type` value: a string naming one of [`TYPES`].
struct TypeName;

impl Visitor<'_> for TypeName {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a fault type")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        TYPES
            .iter()
            .position(|t| *t == v)
            .ok_or_else(|| E::unknown_variant(v, TYPES))
    }
}

impl<'de> de::Deserialize<'de> for Kind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Kind, D::Error> {
        d.deserialize_str(TypeName).map(Kind)
    }
}

/// An index into [`TYPES`].
struct Kind(usize);

/// A key of the fault object, read as a string. With the type already known, a key that
/// type does not have is refused right here, so the error's path ends at the key.
struct Key<'a>(Option<usize>, &'a mut String);

impl<'de> de::DeserializeSeed<'de> for Key<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_identifier(self)
    }
}

impl Visitor<'_> for Key<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        if let Some(kind) = self.0
            && v != "type"
            && !keys_of(kind).contains(&v)
        {
            return Err(E::unknown_field(v, keys_of(kind)));
        }
        v.clone_into(self.1);
        Ok(())
    }
}

struct FaultVisitor;

impl<'de> Visitor<'de> for FaultVisitor {
    type Value = Fault;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("internally tagged enum Fault")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fault, A::Error> {
        let mut kind: Option<usize> = None;
        let mut slots = Slots::default();
        let mut stray: Option<String> = None;
        let mut key = String::new();
        while map.next_key_seed(Key(kind, &mut key))?.is_some() {
            if key == "type" {
                if kind.is_some() {
                    return Err(de::Error::duplicate_field("type"));
                }
                kind = Some(map.next_value::<Kind>()?.0);
            } else if !slots.read(&key, &mut map)? {
                // No fault has this key (and the type is not known yet): refused below,
                // naming the type's keys.
                map.next_value::<IgnoredAny>()?;
                stray.get_or_insert_with(|| key.clone());
            }
        }
        let kind = kind.ok_or_else(|| de::Error::missing_field("type"))?;
        let keys = keys_of(kind);
        // The first key (in the caller's order) that this type does not have.
        if let Some(k) = slots.seen.iter().find(|k| !keys.contains(k)) {
            return Err(de::Error::unknown_field(k, keys));
        }
        if let Some(k) = stray {
            return Err(de::Error::unknown_field(&k, keys));
        }
        build(kind, slots)
    }
}

/// `slot`'s value, or serde's `missing field`.
fn need<T, E: de::Error>(slot: Option<T>, key: &'static str) -> Result<T, E> {
    slot.ok_or_else(|| E::missing_field(key))
}

/// The variant `TYPES[kind]` from slots holding only its keys.
fn build<E: de::Error>(kind: usize, s: Slots) -> Result<Fault, E> {
    Ok(match kind {
        0 => Fault::Crash {
            node: need(s.node, "node")?,
        },
        1 => Fault::Restart {
            node: need(s.node, "node")?,
        },
        2 => Fault::Pause {
            target: need(s.target, "target")?,
            duration_ms: need(s.duration_ms, "duration_ms")?,
        },
        3 => Fault::PauseAfterCheck {
            node: need(s.node, "node")?,
            duration_ms: need(s.duration_ms, "duration_ms")?,
        },
        4 => Fault::Partition {
            groups: need(s.groups, "groups")?,
        },
        5 => Fault::PartitionOneWay {
            from: need(s.from, "from")?,
            to: need(s.to, "to")?,
        },
        6 => Fault::Isolate {
            nodes: need(s.nodes, "nodes")?,
        },
        8 => Fault::LinkLoss {
            from: need(s.from, "from")?,
            to: need(s.to, "to")?,
            probability: need(s.probability, "probability")?,
        },
        9 => Fault::LinkDuplicate {
            from: need(s.from, "from")?,
            to: need(s.to, "to")?,
            probability: need(s.probability, "probability")?,
        },
        10 => Fault::LinkLatency {
            from: need(s.from, "from")?,
            to: need(s.to, "to")?,
            min_ms: need(s.min_ms, "min_ms")?,
            max_ms: need(s.max_ms, "max_ms")?,
        },
        11 => Fault::ClockOffset {
            target: need(s.target, "target")?,
            offset_ms: need(s.offset_ms, "offset_ms")?,
        },
        12 => Fault::ClockDrift {
            target: need(s.target, "target")?,
            ppm: need(s.ppm, "ppm")?,
        },
        13 => Fault::ClockJump {
            target: need(s.target, "target")?,
            by_ms: need(s.by_ms, "by_ms")?,
        },
        14 => Fault::StoreOutage {
            duration_ms: need(s.duration_ms, "duration_ms")?,
        },
        15 => Fault::DropMessage {
            id: need(s.id, "id")?,
        },
        16 => Fault::Propose {
            node: need(s.node, "node")?,
            command: need(s.command, "command")?,
        },
        _ => Fault::Heal {},
    })
}

impl<'de> de::Deserialize<'de> for Fault {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Fault, D::Error> {
        d.deserialize_map(FaultVisitor)
    }
}
