//! Names of simulated processes: election nodes, the lease store and the fenced resource.

use core::fmt;
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tenure::NodeId;

/// A simulated process, as scenarios, faults and traces name it.
///
/// In JSON a node is its id as a number (`3`); the lease world's two service processes are the
/// strings `"store"` and `"resource"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Proc {
    /// An election node (Raft node, Bully node or lease contender), ids `1..=nodes`.
    Node(NodeId),
    /// The lease store (lease worlds only).
    Store,
    /// The fenced resource (lease worlds only).
    Resource,
}

impl fmt::Display for Proc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Proc::Node(id) => write!(f, "{id}"),
            Proc::Store => f.write_str("store"),
            Proc::Resource => f.write_str("resource"),
        }
    }
}

impl Serialize for Proc {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Proc::Node(id) => s.serialize_u64(id.0),
            Proc::Store => s.serialize_str("store"),
            Proc::Resource => s.serialize_str("resource"),
        }
    }
}

struct ProcVisitor;

impl Visitor<'_> for ProcVisitor {
    type Value = Proc;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a node id (a positive integer) or \"store\" or \"resource\"")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Proc, E> {
        Ok(Proc::Node(NodeId(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Proc, E> {
        u64::try_from(v)
            .map(|v| Proc::Node(NodeId(v)))
            .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Proc, E> {
        match v {
            "store" => Ok(Proc::Store),
            "resource" => Ok(Proc::Resource),
            other => Err(E::invalid_value(de::Unexpected::Str(other), &self)),
        }
    }
}

impl<'de> Deserialize<'de> for Proc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Proc, D::Error> {
        d.deserialize_any(ProcVisitor)
    }
}
