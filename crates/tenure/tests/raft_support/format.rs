//! Compact one-line renderings of Raft outputs for golden scripts and failure messages.

use tenure::raft::{Entry, EntryData, Message, PersistOp, RaftEvent, RaftOutput};

pub fn entries(entries: &[Entry]) -> String {
    let items: Vec<String> = entries
        .iter()
        .map(|e| match e.data {
            EntryData::Noop => format!("{}/noop", e.term),
            EntryData::Command(c) => format!("{}/c{c}", e.term),
        })
        .collect();
    format!("[{}]", items.join(" "))
}

pub fn message(msg: &Message) -> String {
    match msg {
        Message::RequestVote {
            term,
            last_log_index,
            last_log_term,
            pre_vote,
        } => format!(
            "{} term={term} last={last_log_index}@{last_log_term}",
            if *pre_vote { "PreVote" } else { "RequestVote" }
        ),
        Message::RequestVoteResponse {
            term,
            granted,
            pre_vote,
        } => format!(
            "{} term={term} {}",
            if *pre_vote {
                "PreVoteResponse"
            } else {
                "RequestVoteResponse"
            },
            if *granted { "granted" } else { "rejected" }
        ),
        Message::AppendEntries {
            term,
            prev_log_index,
            prev_log_term,
            entries: es,
            leader_commit,
            ..
        } => {
            format!(
                "AppendEntries term={term} prev={prev_log_index}@{prev_log_term} entries={} commit={leader_commit}",
                entries(es)
            )
        }
        Message::AppendEntriesResponse {
            term,
            success,
            match_index,
            ..
        } => format!(
            "AppendEntriesResponse term={term} {} match={match_index}",
            if *success { "ok" } else { "reject" }
        ),
    }
}

pub fn output(out: &RaftOutput) -> String {
    match out {
        RaftOutput::Send { to, msg } => format!("send to {to}: {}", message(msg)),
        RaftOutput::Persist(PersistOp::HardState { term, voted_for }) => format!(
            "persist HardState term={term} vote={}",
            voted_for.map_or("-".to_string(), |v| v.to_string())
        ),
        RaftOutput::Persist(PersistOp::Append {
            first_index,
            entries: es,
        }) => {
            format!("persist Append from={first_index} {}", entries(es))
        }
        RaftOutput::Persist(PersistOp::TruncateAndAppend {
            first_index,
            entries: es,
        }) => {
            format!(
                "persist TruncateAndAppend from={first_index} {}",
                entries(es)
            )
        }
        RaftOutput::Event(e) => format!("event {}", event(e)),
    }
}

pub fn event(e: &RaftEvent) -> String {
    match e {
        RaftEvent::BecameLeader { term } => format!("BecameLeader term={term}"),
        RaftEvent::SteppedDown { term, reason } => {
            format!("SteppedDown term={term} reason={reason:?}")
        }
        RaftEvent::Committed { index } => format!("Committed index={index}"),
        RaftEvent::BecameCandidate { term } => format!("BecameCandidate term={term}"),
        RaftEvent::BecamePreCandidate { term } => format!("BecamePreCandidate term={term}"),
    }
}
