//! `Simulation.snapshot()` as one flat `Float64Array` (a "frame"), read into the documented
//! `Snapshot` object by a small JS reader (pkg/sim/snapshot.js).
//!
//! Why: serde-wasm-bindgen builds a snapshot one JS property at a time, a call from wasm into
//! JS for each (about 4,000 at 25 Raft nodes: 1.7 ms). Here the simulator's own serde forms
//! are written as values only, in their declared field order, into a reused `Vec<f64>`; the
//! reader builds the objects with plain JS object literals. The frame is not copied out:
//! `__snapshotFrame` returns its address and the reader reads it through a `Float64Array`
//! over the module's memory (`Simulation.__frameMemory()`), before any other call into the
//! module.
//!
//! The tape: a number (every integer and time; times already in ms through the simulator's
//! serde forms) is one `f64`; a bool is `0`/`1`; an `Option` is a tag (`0` none, `1` some)
//! followed by the value; a sequence is its length followed by its elements; a struct, tuple
//! or newtype is its fields in order, no names. A string is `-(k + 1)`, `k` an index into the
//! simulation's table of labels (role, kind, status and reason names, "store", "resource"),
//! which only grows; the reader fetches the labels it has not seen by index. A log entry is
//! `index, term, command` (an option) the first time, and `-(slot + 1)` once the reader holds
//! it: reader and writer keep the same table of entries by `index % ENTRY_SLOTS`, the writer
//! recording what each frame sent, the reader what it read. The reader passes the count of
//! frames it has read to the end; when it is not the count written (a frame left unread),
//! the writer empties its table first. A clone starts both tables empty. The entries are
//! frozen and shared between snapshots. Violations are
//! not on the tape (their text is free-form and they only grow, append-only): the tape gives
//! their count and the reader fetches the new ones through serde-wasm-bindgen.

use std::collections::HashMap;
use std::fmt;

use serde::ser::{self, Serialize};
use tenure_sim::Proc;
use tenure_sim::snapshot::{NodeView, Snapshot};
use tenure_sim::units::us_to_ms;
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::simulation::Simulation;

#[wasm_bindgen]
impl Simulation {
    /// The module's `WebAssembly.Memory`, which holds the frames `__snapshotFrame` writes
    /// (pkg/sim/snapshot.js reads them there). Not part of the typed API.
    #[wasm_bindgen(js_name = __frameMemory, skip_typescript)]
    pub fn frame_memory() -> JsValue {
        wasm_bindgen::memory()
    }
}

// `snapshot()` is defined in JS (pkg/sim/snapshot.js) on the generated class; its declaration
// merges into the class's.
#[wasm_bindgen(typescript_custom_section)]
const SNAPSHOT_TS: &'static str = r#"
export interface Simulation {
  /**
   * The world now: every process, messages in flight, recent drops, blocked links, the
   * store and resource (lease worlds), metrics and violations. Cheap enough for every
   * animation frame (tens of microseconds at 25 nodes): a fresh object each call, except
   * that the entries of `violations` and the entries of each node's `log` are shared,
   * frozen, between the snapshots of one Simulation (a violation never changes once
   * recorded; a log entry is shared while its index, term and command are the same).
   */
  snapshot(): Snapshot;
}
"#;

/// Most distinct labels a simulation's table holds: the simulator's labels number a few dozen;
/// a string beyond this many (none today) makes the frame fail rather than grow the table.
const MAX_LABELS: usize = 4096;

/// The frame buffer and label table of one `Simulation`.
#[derive(Default)]
pub(crate) struct Frame {
    /// The last frame written.
    pub(crate) tape: Vec<f64>,
    labels: Vec<String>,
    index: HashMap<String, u32>,
    /// Label indices by the address and length of the `&str` last seen there (the
    /// simulator's labels are `&'static str`s, so the same few addresses come back every
    /// frame): no hashing of text per string. A hit is checked against the label's text,
    /// except for a `&'static str` ([`Frame::static_label`]), whose text cannot change.
    by_address: Vec<(usize, usize, u32)>,
    /// The log entries the reader holds, `(index, term, command)` by `index % ENTRY_SLOTS`,
    /// as this writer last sent them: one it holds is written as a reference.
    entries: Vec<Option<(u64, u64, Option<u64>)>>,
    /// Frames written since `entries` was last emptied, counted as the reader counts the
    /// frames it reads (wrapping at 2^32).
    written: u32,
}

/// Slots of [`Frame::entries`] and of the reader's entry table (a power of two; the same
/// number in pkg/sim/snapshot.js).
const ENTRY_SLOTS: usize = 1024;

/// Slots of [`Frame::by_address`] (a power of two, `1 << ADDRESS_BITS`).
const ADDRESS_BITS: u32 = 10;
const ADDRESS_SLOTS: usize = 1 << ADDRESS_BITS;

/// The slot of a string at `address` of length `len`: Fibonacci hashing of the address
/// (the top bits of a multiplication by 2^32 / phi), which spreads the nearby addresses of
/// the simulator's labels over the table.
fn slot_of(address: usize, len: usize) -> usize {
    let mixed = (address ^ len.rotate_left(16)) as u32;
    (mixed.wrapping_mul(0x9E37_79B9) >> (32 - ADDRESS_BITS)) as usize
}

/// Why a frame could not be written (never expected: a map, bytes or a label table overflow).
#[derive(Debug)]
pub(crate) struct FrameError(String);

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FrameError {}

impl ser::Error for FrameError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        FrameError(msg.to_string())
    }
}

impl Frame {
    /// Writes `snap` (its `violations` left out, their count `violations` given instead).
    ///
    /// Layout: `[labels, violations, time_ms, algorithm, nodes, in_flight, dropped, blocked,
    /// store, resource, metrics, promised]`, `labels` being the table's length after this frame.
    ///
    /// `read` is how many frames the reader has read to the end. The entry table holds
    /// what the reader holds only if it read every frame written; otherwise (a snapshot that
    /// threw before reading its frame) the table starts again empty, and every entry is
    /// written whole.
    pub(crate) fn write(
        &mut self,
        snap: &Snapshot,
        violations: usize,
        read: u32,
    ) -> Result<(), FrameError> {
        if read != self.written {
            self.entries.clear();
            self.written = read;
        }
        let result = self.write_tape(snap, violations);
        match result {
            Ok(()) => self.written = self.written.wrapping_add(1),
            // The reader will not read this frame: forget what it recorded as sent.
            Err(_) => self.entries.clear(),
        }
        result
    }

    fn write_tape(&mut self, snap: &Snapshot, violations: usize) -> Result<(), FrameError> {
        self.tape.clear();
        self.tape.push(0.0); // the label count, set below
        self.tape.push(violations as f64);
        let mut t = Tape(self);
        (us_to_ms(snap.time_us), &snap.algorithm).serialize(&mut t)?;
        // The nodes (and their log tails: most of the frame) are written field by field, the
        // same values in the same order as their serde form, without a call per value.
        t.num(snap.nodes.len() as f64)?;
        for n in &snap.nodes {
            t.node(n)?;
        }
        // The messages in flight and the recent drops (a few dozen at 25 nodes), written
        // directly too (their kinds are `&'static str` labels).
        t.num(snap.in_flight.len() as f64)?;
        for m in &snap.in_flight {
            let (from, to) = (t.proc(m.from)?, t.proc(m.to)?);
            let kind = t.0.static_label(m.kind)?;
            let tape = &mut t.0.tape;
            tape.extend_from_slice(&[m.id as f64, from, to, kind]);
            push_opt(tape, m.value.map_or([0.0, 0.0], |v| [1.0, v as f64]));
            tape.extend_from_slice(&[us_to_ms(m.send_us), us_to_ms(m.arrival_us)]);
        }
        t.num(snap.dropped.len() as f64)?;
        for d in &snap.dropped {
            let (from, to) = (t.proc(d.from)?, t.proc(d.to)?);
            let kind = t.0.static_label(d.kind)?;
            t.0.tape
                .extend_from_slice(&[d.id as f64, from, to, kind, us_to_ms(d.time_us)]);
            d.reason.serialize(&mut t)?;
        }
        snap.blocked.serialize(&mut t)?;
        (&snap.store, &snap.resource, &snap.metrics, &snap.promised).serialize(&mut t)?;
        let labels = self.labels.len() as f64;
        if let Some(first) = self.tape.first_mut() {
            *first = labels;
        }
        Ok(())
    }

    /// The labels from index `from` on.
    pub(crate) fn labels_from(&self, from: usize) -> &[String] {
        self.labels.get(from..).unwrap_or_default()
    }

    /// The label of a `&'static str`: its address and length identify it (static text never
    /// changes or moves), so a hit costs no comparison of text.
    fn static_label(&mut self, s: &'static str) -> Result<f64, FrameError> {
        let (address, len) = (s.as_ptr() as usize, s.len());
        if let Some(&(a, l, k)) = self.by_address.get(slot_of(address, len))
            && a == address
            && l == len
        {
            return Ok(-(f64::from(k) + 1.0));
        }
        self.label(s)
    }

    fn label(&mut self, s: &str) -> Result<f64, FrameError> {
        let (address, len) = (s.as_ptr() as usize, s.len());
        let slot = slot_of(address, len);
        if let Some(&(a, l, k)) = self.by_address.get(slot)
            && a == address
            && l == len
            && self.labels.get(k as usize).is_some_and(|l| l == s)
        {
            return Ok(-(f64::from(k) + 1.0));
        }
        let k = match self.index.get(s) {
            Some(&k) => k,
            None => {
                if self.labels.len() >= MAX_LABELS {
                    return Err(FrameError(format!(
                        "more than {MAX_LABELS} distinct labels"
                    )));
                }
                let k = self.labels.len() as u32;
                self.labels.push(s.to_owned());
                self.index.insert(s.to_owned(), k);
                k
            }
        };
        if self.by_address.is_empty() {
            self.by_address = vec![(0, 0, 0); ADDRESS_SLOTS];
        }
        if let Some(entry) = self.by_address.get_mut(slot) {
            *entry = (address, len, k);
        }
        Ok(-(f64::from(k) + 1.0))
    }
}

/// The serializer writing a [`Frame`]'s tape.
struct Tape<'a>(&'a mut Frame);

impl Tape<'_> {
    fn num(&mut self, v: f64) -> Result<(), FrameError> {
        self.0.tape.push(v);
        Ok(())
    }

    /// A process id's value: its number, or its label ("store", "resource").
    fn proc(&mut self, p: Proc) -> Result<f64, FrameError> {
        match p {
            Proc::Node(id) => Ok(id.0 as f64),
            Proc::Store => self.0.static_label("store"),
            Proc::Resource => self.0.static_label("resource"),
        }
    }

    /// `NodeView`'s serde form (tenure-sim snapshot.rs), written directly.
    fn node(&mut self, n: &NodeView) -> Result<(), FrameError> {
        (&n.id, &n.role, &n.role_kind).serialize(&mut *self)?;
        let opt = |v: Option<u64>| match v {
            Some(v) => [1.0, v as f64],
            None => [0.0, 0.0],
        };
        let tape = &mut self.0.tape;
        tape.push(f64::from(u8::from(n.acting_leader)));
        for v in [n.term, n.token, n.leader] {
            push_opt(tape, opt(v));
        }
        n.status.serialize(&mut *self)?;
        let tape = &mut self.0.tape;
        tape.push(us_to_ms(n.clock_us));
        for v in [n.lease_deadline_us, n.lease_validity_us] {
            push_opt(
                tape,
                match v {
                    Some(us) => [1.0, us_to_ms(us)],
                    None => [0.0, 0.0],
                },
            );
        }
        match &n.next_timer {
            Some(timer) => {
                tape.push(1.0);
                let kind = self.0.static_label(timer.kind)?;
                let tape = &mut self.0.tape;
                tape.extend_from_slice(&[
                    kind,
                    us_to_ms(timer.deadline_us),
                    us_to_ms(timer.armed_us),
                    us_to_ms(timer.wait_us),
                ]);
            }
            None => tape.push(0.0),
        }
        let tape = &mut self.0.tape;
        push_opt(tape, opt(n.log_len));
        push_opt(tape, opt(n.commit));
        match &n.log {
            Some(log) => {
                let Frame { tape, entries, .. } = &mut *self.0;
                if entries.is_empty() {
                    *entries = vec![None; ENTRY_SLOTS];
                }
                tape.reserve(2 + 4 * log.len());
                tape.push(1.0);
                tape.push(log.len() as f64);
                for e in log {
                    let slot = (e.index as usize) & (ENTRY_SLOTS - 1);
                    let entry = (e.index, e.term, e.command);
                    match entries.get_mut(slot) {
                        // The reader holds this entry in `slot`: its reference.
                        Some(held) if *held == Some(entry) => tape.push(-(slot as f64) - 1.0),
                        held => {
                            if let Some(held) = held {
                                *held = Some(entry);
                            }
                            let [tag, command] = opt(e.command);
                            tape.extend_from_slice(&[e.index as f64, e.term as f64, tag]);
                            if tag == 1.0 {
                                tape.push(command);
                            }
                        }
                    }
                }
            }
            None => tape.push(0.0),
        }
        Ok(())
    }
}

/// An `Option` on the tape: the tag, then the value when present.
fn push_opt(tape: &mut Vec<f64>, [tag, v]: [f64; 2]) {
    tape.push(tag);
    if tag == 1.0 {
        tape.push(v);
    }
}

/// serde's `Serializer` over a [`Tape`] (the simulator's values other than the nodes and
/// messages, which are written directly).
mod serializer;

#[cfg(test)]
mod tests {
    use super::*;
    use tenure_sim::World;

    fn world(algorithm: &str, nodes: u32) -> World {
        let json = format!(
            r#"{{"version":1,"algorithm":"{algorithm}","nodes":{nodes},"seed":7,"duration_ms":20000,
               "faults":[{{"at_ms":3000,"fault":{{"type":"partition","groups":[[1,2],[3]]}}}}]}}"#
        );
        let scenario: tenure_sim::Scenario = serde_json::from_str(&json).unwrap();
        let mut w = World::new(&scenario).unwrap();
        w.run_until(tenure::Instant::from_micros(5_000_000));
        w
    }

    #[test]
    fn a_frame_interns_each_label_once_and_starts_with_the_counts() {
        let w = world("raft", 5);
        let mut f = Frame::default();
        f.write(&w.snapshot(), 3, 0).unwrap();
        let labels = f.labels.len();
        assert_eq!(f.tape[0], labels as f64);
        assert_eq!(f.tape[1], 3.0);
        assert_eq!(f.tape[2], 5000.0, "time_ms");
        assert!(f.labels.iter().any(|l| l == "raft"));
        let first = f.tape.clone();
        f.write(&w.snapshot(), 3, 1).unwrap();
        let second = f.tape.clone();
        assert!(
            second.len() < first.len(),
            "log entries already sent are references"
        );
        assert!(second.iter().filter(|&&v| v < 0.0).count() > first.len() - second.len());
        f.write(&w.snapshot(), 3, 2).unwrap();
        assert_eq!(f.tape, second, "the same world, the same frame");
        // The reader says it read 2 frames of the 3 written: every entry is sent whole again.
        f.write(&w.snapshot(), 3, 2).unwrap();
        assert_eq!(f.tape, first, "a frame left unread: entries written whole");
        f.write(&w.snapshot(), 3, 3).unwrap();
        assert_eq!(f.tape, second, "in step again");
        assert_eq!(f.labels.len(), labels, "no label added twice");
        assert_eq!(f.labels_from(labels), &[] as &[String]);
        assert_eq!(f.labels_from(labels + 10), &[] as &[String]);
    }

    #[test]
    fn compounds_write_their_values_in_order_and_a_skipped_field_fails() {
        #[derive(serde::Serialize)]
        struct Pair {
            a: u8,
            #[serde(skip_serializing_if = "Option::is_none")]
            b: Option<u8>,
        }
        let mut f = Frame::default();
        let mut t = Tape(&mut f);
        (vec![1u8, 2], (3u8, 4u8), Pair { a: 5, b: Some(6) })
            .serialize(&mut t)
            .unwrap();
        assert_eq!(f.tape, [2.0, 1.0, 2.0, 3.0, 4.0, 5.0, 1.0, 6.0]);
        let mut t = Tape(&mut f);
        let err = Pair { a: 5, b: None }.serialize(&mut t).unwrap_err();
        assert_eq!(err.to_string(), "a skipped field has no frame form");
    }

    #[test]
    fn every_algorithm_writes_a_frame() {
        for algorithm in ["raft", "bully", "lease-fencing", "lease-unfenced"] {
            let w = world(algorithm, 3);
            let mut f = Frame::default();
            f.write(&w.snapshot(), 0, 0).unwrap();
            assert!(f.tape.len() > 10, "{algorithm}");
        }
    }
}
