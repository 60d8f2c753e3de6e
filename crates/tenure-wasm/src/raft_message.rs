//! Raft's data shapes in JS: messages, log entries, `Persist` operations and the persisted
//! state, as plain objects with a `type` discriminant; terms, indexes, ids and commands are
//! `bigint` (Raft Figure 2 field names, snake_case).

use tenure::NodeId;
use tenure::raft::{Entry, EntryData, Message, PersistOp, PersistentState};
use wasm_bindgen::JsValue;
use wasm_bindgen::prelude::wasm_bindgen;

use crate::convert::u64_to_bigint;
use crate::error::U64Arg;
use crate::read::{Fields, each};
use crate::shape::{bigint, boolean, js_object, js_union};

#[wasm_bindgen(typescript_custom_section)]
const TS_RAFT_ALIASES: &'static str = r#"
/** A Raft term: u64, so a bigint. */
export type Term = bigint;
/** A 1-based Raft log index (0n means "before the first entry"). */
export type LogIndex = bigint;
"#;

js_union!(
    /// One log entry (Raft §5.3): the leader's no-op (§5.4.2) or a client command.
    RaftEntry = Entry;
    read entry_from_js, ENTRY_TAGS, ENTRY_KEYS;
    write entry_to_js;
    Noop {
        term: "Term" = Fields::u64, U64Arg::Term => bigint,
    } = (Entry { term, data: EntryData::Noop })
    Command {
        term: "Term" = Fields::u64, U64Arg::Term => bigint,
        command: "bigint" = Fields::u64, U64Arg::Command => bigint,
    } = (Entry { term, data: EntryData::Command(command) })
);

/// Reads the array field `key` of `f` as entries.
/// At most `max` entries (`crate::limits`), checked before any is read.
fn entries_from_js(f: &Fields, key: &'static str, max: usize) -> Result<Vec<Entry>, JsValue> {
    let array = f.array(key)?;
    each(&array, &f.path_of(key), max, |path, v| {
        entry_from_js(v, path)
    })
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
    /// A message between Raft nodes (Raft Figure 2; PreVote from the dissertation §9.6).
    RaftMessage = Message;
    read message_from_js, MESSAGE_TAGS, MESSAGE_KEYS;
    write message_to_js;
    RequestVote {
        term: "Term" = Fields::u64, U64Arg::Term => bigint,
        last_log_index: "LogIndex" = Fields::u64, U64Arg::Index => bigint,
        last_log_term: "Term" = Fields::u64, U64Arg::Term => bigint,
        pre_vote: "boolean" = Fields::bool => boolean,
    }
    RequestVoteResponse {
        term: "Term" = Fields::u64, U64Arg::Term => bigint,
        granted: "boolean" = Fields::bool => boolean,
        pre_vote: "boolean" = Fields::bool => boolean,
    }
    AppendEntries {
        term: "Term" = Fields::u64, U64Arg::Term => bigint,
        prev_log_index: "LogIndex" = Fields::u64, U64Arg::Index => bigint,
        prev_log_term: "Term" = Fields::u64, U64Arg::Term => bigint,
        entries: "RaftEntry[]" = entries_from_js, crate::limits::MAX_APPEND_ENTRIES => entries_to_js,
        leader_commit: "LogIndex" = Fields::u64, U64Arg::Index => bigint,
        /// Opaque to the follower, echoed in its response; the leader's send time in us,
        /// which anchors its leader lease. Always present on output; absent on input = 0n.
        context: optional "bigint" = context_or_zero => bigint,
    }
    AppendEntriesResponse {
        term: "Term" = Fields::u64, U64Arg::Term => bigint,
        success: "boolean" = Fields::bool => boolean,
        match_index: "LogIndex" = Fields::u64, U64Arg::Index => bigint,
        /// The `context` of the AppendEntries answered. Absent on input = 0n.
        context: optional "bigint" = context_or_zero => bigint,
    }
);

/// The optional `context` field: absent on input is 0.
fn context_or_zero(f: &Fields, key: &'static str) -> Result<u64, JsValue> {
    Ok(f.opt_u64(key, U64Arg::Context)?.unwrap_or(0))
}

js_union!(
    /// One change to make durable before any later Send leaves (design rule 6, S11).
    RaftPersistOp = PersistOp;
    write persist_op_to_js;
    HardState {
        term: "Term" => bigint,
        voted_for: "NodeId | null" => node_or_null,
    }
    /// New entries at the end of the log, the first at `first_index`.
    Append {
        first_index: "LogIndex" => bigint,
        entries: "RaftEntry[]" => entries_to_js,
    }
    /// Drop every entry at index >= first_index, then append `entries`.
    TruncateAndAppend {
        first_index: "LogIndex" => bigint,
        entries: "RaftEntry[]" => entries_to_js,
    }
);

js_object!(
    /// The durable state of a Raft node: what RaftNode.restart takes. `log[0]` is index 1.
    RaftPersistentState = PersistentState {
        // The JS machines never compact their logs.
        ..PersistentState::default()
    };
    read state_from_js, STATE_KEYS;
    write state_to_js;
    term: "Term" = Fields::u64, U64Arg::Term => bigint,
    voted_for: "NodeId | null" = node_or_none => node_or_null,
    log: "RaftEntry[]" = entries_from_js, crate::limits::MAX_LOG_ENTRIES => entries_to_js,
);

/// A node id field that may be `null` or absent.
fn node_or_none(f: &Fields, key: &'static str) -> Result<Option<NodeId>, JsValue> {
    Ok(f.opt_u64(key, U64Arg::NodeId)?.map(NodeId))
}

/// A node id as a `bigint`, or `null`.
#[allow(clippy::ref_option)] // The writers all take their field by reference.
pub(crate) fn node_or_null(id: &Option<NodeId>) -> Result<JsValue, JsValue> {
    Ok(id.map_or(JsValue::NULL, |id| u64_to_bigint(id.0)))
}
