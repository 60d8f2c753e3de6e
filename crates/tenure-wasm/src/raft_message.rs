//! Raft's data shapes in JS: messages, log entries, `Persist` operations and the persisted
//! state, as plain objects with a `type` discriminant; terms, indexes, ids and commands are
//! `bigint` (Raft Figure 2 field names, snake_case).

use tenure::NodeId;
use tenure::raft::{Entry, EntryData, Message, PersistOp, PersistentState};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::convert::u64_to_bigint;
use crate::error::{Name, U64Arg};
use crate::object::plain_object;
use crate::read::{Fields, each};
use crate::shape::{bigint, boolean, js_union};

#[wasm_bindgen(typescript_custom_section)]
const TS_RAFT_MESSAGES: &'static str = r#"
/** A Raft term: u64, so a bigint. */
export type Term = bigint;
/** A 1-based Raft log index (0n means "before the first entry"). */
export type LogIndex = bigint;

/** One log entry (Raft §5.3): the leader's no-op (§5.4.2) or a client command. */
export type RaftEntry =
  | { type: "Noop"; term: Term }
  | { type: "Command"; term: Term; command: bigint };

/** A message between Raft nodes (Raft Figure 2; PreVote from the dissertation §9.6). */
export type RaftMessage =
  | { type: "RequestVote"; term: Term; last_log_index: LogIndex; last_log_term: Term; pre_vote: boolean }
  | { type: "RequestVoteResponse"; term: Term; granted: boolean; pre_vote: boolean }
  | {
      type: "AppendEntries";
      term: Term;
      prev_log_index: LogIndex;
      prev_log_term: Term;
      entries: RaftEntry[];
      leader_commit: LogIndex;
      /** Opaque to the follower, echoed in its response; the leader's send time in us,
       * which anchors its leader lease. Always present on output; absent on input = 0n. */
      context?: bigint;
    }
  | {
      type: "AppendEntriesResponse";
      term: Term;
      success: boolean;
      match_index: LogIndex;
      /** The `context` of the AppendEntries answered. Absent on input = 0n. */
      context?: bigint;
    };

/** One change to make durable before any later Send leaves (design rule 6, S11). */
export type RaftPersistOp =
  | { type: "HardState"; term: Term; voted_for: NodeId | null }
  /** New entries at the end of the log, the first at `first_index`. */
  | { type: "Append"; first_index: LogIndex; entries: RaftEntry[] }
  /** Drop every entry at index >= first_index, then append `entries`. */
  | { type: "TruncateAndAppend"; first_index: LogIndex; entries: RaftEntry[] };

/** The durable state of a Raft node: what RaftNode.restart takes. `log[0]` is index 1. */
export interface RaftPersistentState {
  term: Term;
  voted_for: NodeId | null;
  log: RaftEntry[];
}
"#;

const ENTRY_TAGS: &[&str] = &["Noop", "Command"];
const ENTRY_KEYS: &[&[&str]] = &[&["type", "term"], &["type", "term", "command"]];

const STATE_KEYS: &[&str] = &["term", "voted_for", "log"];

/// Reads a JS `RaftEntry`.
fn entry_from_js(value: &JsValue, path: Name) -> Result<Entry, JsValue> {
    let (tag, f) = Fields::tagged(value, path, ENTRY_TAGS, ENTRY_KEYS)?;
    let term = f.u64("term", U64Arg::Term)?;
    let data = match tag {
        0 => EntryData::Noop,
        _ => EntryData::Command(f.u64("command", U64Arg::Command)?),
    };
    Ok(Entry { term, data })
}

/// Reads the array field `key` of `f` as entries.
/// At most `max` entries (`crate::limits`), checked before any is read.
fn entries_from_js(f: &Fields, key: &'static str, max: usize) -> Result<Vec<Entry>, JsValue> {
    let array = f.array(key)?;
    each(&array, &f.path_of(key), max, |path, v| {
        entry_from_js(v, path)
    })
}

/// A log entry as a JS `RaftEntry`.
pub(crate) fn entry_to_js(entry: &Entry) -> Result<JsValue, JsValue> {
    match entry.data {
        EntryData::Noop => plain_object(&[
            ("type", crate::object::name("Noop")),
            ("term", u64_to_bigint(entry.term)),
        ]),
        EntryData::Command(command) => plain_object(&[
            ("type", crate::object::name("Command")),
            ("term", u64_to_bigint(entry.term)),
            ("command", u64_to_bigint(command)),
        ]),
    }
}

/// Entries as a JS array.
pub(crate) fn entries_to_js(entries: &[Entry]) -> Result<JsValue, JsValue> {
    let array = js_sys::Array::new_with_length(u32::try_from(entries.len()).unwrap_or(u32::MAX));
    for (i, entry) in entries.iter().enumerate() {
        array.set(u32::try_from(i).unwrap_or(u32::MAX), entry_to_js(entry)?);
    }
    Ok(array.into())
}

js_union!(
    Message, MESSAGE_TAGS, MESSAGE_KEYS, message_from_js, message_to_js;
    RequestVote {
        term: Fields::u64, U64Arg::Term => bigint,
        last_log_index: Fields::u64, U64Arg::Index => bigint,
        last_log_term: Fields::u64, U64Arg::Term => bigint,
        pre_vote: Fields::bool => boolean,
    }
    RequestVoteResponse {
        term: Fields::u64, U64Arg::Term => bigint,
        granted: Fields::bool => boolean,
        pre_vote: Fields::bool => boolean,
    }
    AppendEntries {
        term: Fields::u64, U64Arg::Term => bigint,
        prev_log_index: Fields::u64, U64Arg::Index => bigint,
        prev_log_term: Fields::u64, U64Arg::Term => bigint,
        entries: entries_from_js, crate::limits::MAX_APPEND_ENTRIES => entries_to_js,
        leader_commit: Fields::u64, U64Arg::Index => bigint,
        context: context_or_zero => bigint,
    }
    AppendEntriesResponse {
        term: Fields::u64, U64Arg::Term => bigint,
        success: Fields::bool => boolean,
        match_index: Fields::u64, U64Arg::Index => bigint,
        context: context_or_zero => bigint,
    }
);

/// The optional `context` field: absent on input is 0.
fn context_or_zero(f: &Fields, key: &'static str) -> Result<u64, JsValue> {
    Ok(f.opt_u64(key, U64Arg::Context)?.unwrap_or(0))
}

/// A `Persist` operation as a JS `RaftPersistOp`.
pub(crate) fn persist_op_to_js(op: &PersistOp) -> Result<JsValue, JsValue> {
    match op {
        PersistOp::HardState { term, voted_for } => plain_object(&[
            ("type", crate::object::name("HardState")),
            ("term", u64_to_bigint(*term)),
            ("voted_for", node_or_null(*voted_for)),
        ]),
        PersistOp::Append {
            first_index,
            entries,
        } => plain_object(&[
            ("type", crate::object::name("Append")),
            ("first_index", u64_to_bigint(*first_index)),
            ("entries", entries_to_js(entries)?),
        ]),
        PersistOp::TruncateAndAppend {
            first_index,
            entries,
        } => plain_object(&[
            ("type", crate::object::name("TruncateAndAppend")),
            ("first_index", u64_to_bigint(*first_index)),
            ("entries", entries_to_js(entries)?),
        ]),
    }
}

/// Reads a JS `RaftPersistentState` (named `path` in errors).
pub(crate) fn state_from_js(
    value: &JsValue,
    path: impl Into<Name>,
) -> Result<PersistentState, JsValue> {
    let f = Fields::new(value, path, STATE_KEYS)?;
    Ok(PersistentState {
        term: f.u64("term", U64Arg::Term)?,
        voted_for: f.opt_u64("voted_for", U64Arg::NodeId)?.map(NodeId),
        log: entries_from_js(&f, "log", crate::limits::MAX_LOG_ENTRIES)?,
        // The JS machines never compact their logs.
        ..PersistentState::default()
    })
}

/// The persisted state as a JS `RaftPersistentState`.
pub(crate) fn state_to_js(state: &PersistentState) -> Result<JsValue, JsValue> {
    plain_object(&[
        ("term", u64_to_bigint(state.term)),
        ("voted_for", node_or_null(state.voted_for)),
        ("log", entries_to_js(&state.log)?),
    ])
}

/// A node id as a `bigint`, or `null`.
pub(crate) fn node_or_null(id: Option<NodeId>) -> JsValue {
    id.map_or(JsValue::NULL, |id| u64_to_bigint(id.0))
}
