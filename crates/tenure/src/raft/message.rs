//! Raft's wire messages and log entries (Raft §5, Figure 2; PreVote from Ongaro's
//! dissertation §9.6).
//!
//! Terms and log indexes are plain `u64`; indexes are 1-based as in the paper, and index 0
//! with term 0 stands for "before the first entry".

use alloc::vec::Vec;

/// What a log entry carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum EntryData {
    /// The no-op a new leader appends on election, so it can commit entries of its term
    /// (Raft §5.4.2, §8; design rule 6; scenario S13).
    Noop,
    /// A client command, an opaque number (a JS-friendly `u64`; the playground shows it).
    Command(u64),
}

/// One log entry: the term of the leader that created it and its data (Raft §5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Entry {
    /// The term in which a leader appended this entry.
    pub term: u64,
    /// The payload.
    pub data: EntryData,
}

/// A message between Raft nodes (Raft Figure 2, dissertation §9.6).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Message {
    /// A candidate asks for a vote (Raft §5.2), or a pre-candidate asks whether it would
    /// get one (`pre_vote`, dissertation §9.6).
    RequestVote {
        /// The candidate's term; for a PreVote, the term it would campaign in (its term + 1).
        term: u64,
        /// Index of the candidate's last log entry (0 if its log is empty).
        last_log_index: u64,
        /// Term of the candidate's last log entry (0 if its log is empty).
        last_log_term: u64,
        /// `true` for a PreVote: the voter changes neither its term nor its vote.
        pre_vote: bool,
    },
    /// The answer to a [`Message::RequestVote`].
    RequestVoteResponse {
        /// A granted vote echoes the requested term; a refusal carries the voter's term.
        term: u64,
        /// Whether the (pre-)vote is granted.
        granted: bool,
        /// Whether this answers a PreVote.
        pre_vote: bool,
    },
    /// The leader replicates entries, and with none it is a heartbeat (Raft §5.3).
    AppendEntries {
        /// The leader's term.
        term: u64,
        /// Index of the entry just before `entries`.
        prev_log_index: u64,
        /// Term of the entry at `prev_log_index` (0 when `prev_log_index` is 0).
        prev_log_term: u64,
        /// Entries to store, at most `max_entries_per_append`; empty for a heartbeat.
        entries: Vec<Entry>,
        /// The leader's commit index.
        leader_commit: u64,
        /// Opaque to the follower, which echoes it in its response (as etcd-io/raft's
        /// heartbeat `Context`). Tenure's leader puts its clock reading at send time here,
        /// in us, to anchor its leader lease on send times (design rule 4). 0 if unused.
        context: u64,
    },
    /// The answer to a [`Message::AppendEntries`].
    AppendEntriesResponse {
        /// The follower's term, so a stale leader learns it is deposed.
        term: u64,
        /// Whether the consistency check on `prev_log_index`/`prev_log_term` passed.
        success: bool,
        /// On success, the index of the last entry now known to match the leader's log.
        /// On failure, a hint: the follower's last log index, or the index below the
        /// conflicting one, whichever is lower; the leader retries from `match_index + 1`.
        match_index: u64,
        /// The `context` of the `AppendEntries` this answers.
        context: u64,
    },
}

impl Message {
    /// The term the message carries.
    pub fn term(&self) -> u64 {
        match self {
            Message::RequestVote { term, .. }
            | Message::RequestVoteResponse { term, .. }
            | Message::AppendEntries { term, .. }
            | Message::AppendEntriesResponse { term, .. } => *term,
        }
    }
}
