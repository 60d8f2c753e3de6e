//! Property tests: no input sequence makes a RaftNode panic, and what it buffers stays
//! bounded (docs/design.md, "No input sequence may panic or grow memory without bound"),
//! and every message it sends depends only on what it persisted before (design rule 6, S11).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use tenure::raft::{Entry, EntryData, Message, PersistentState, RaftConfig, RaftNode, RaftOutput};
use tenure::{Duration, Instant, NodeId};

#[derive(Clone, Debug)]
enum Input {
    Message(u64, Message),
    Timeout,
    Propose(u64),
    Campaign,
    Advance(u64),
    Back(u64),
}

fn term() -> impl Strategy<Value = u64> {
    prop_oneof![0..6u64, Just(u64::MAX), Just(u64::MAX - 1)]
}

fn index() -> impl Strategy<Value = u64> {
    prop_oneof![0..8u64, Just(u64::MAX)]
}

fn entries() -> impl Strategy<Value = Vec<Entry>> {
    prop::collection::vec(
        (
            term(),
            prop_oneof![
                Just(EntryData::Noop),
                any::<u64>().prop_map(EntryData::Command)
            ],
        )
            .prop_map(|(term, data)| Entry { term, data }),
        0..20,
    )
}

fn message() -> impl Strategy<Value = Message> {
    prop_oneof![
        (term(), index(), term(), any::<bool>()).prop_map(
            |(term, last_log_index, last_log_term, pre_vote)| {
                Message::RequestVote {
                    term,
                    last_log_index,
                    last_log_term,
                    pre_vote,
                }
            }
        ),
        (term(), any::<bool>(), any::<bool>()).prop_map(|(term, granted, pre_vote)| {
            Message::RequestVoteResponse {
                term,
                granted,
                pre_vote,
            }
        }),
        (term(), index(), term(), entries(), index(), any::<u64>()).prop_map(
            |(term, prev_log_index, prev_log_term, entries, leader_commit, context)| {
                Message::AppendEntries {
                    term,
                    prev_log_index,
                    prev_log_term,
                    entries,
                    leader_commit,
                    context,
                }
            }
        ),
        (term(), any::<bool>(), index(), any::<u64>()).prop_map(
            |(term, success, match_index, context)| {
                Message::AppendEntriesResponse {
                    term,
                    success,
                    match_index,
                    context,
                }
            }
        ),
    ]
}

fn input() -> impl Strategy<Value = Input> {
    prop_oneof![
        4 => (prop_oneof![1..7u64, Just(99), Just(u64::MAX)], message()).prop_map(|(f, m)| Input::Message(f, m)),
        2 => Just(Input::Timeout),
        1 => any::<u64>().prop_map(Input::Propose),
        1 => Just(Input::Campaign),
        2 => (0..400u64).prop_map(Input::Advance),
        1 => (0..400u64).prop_map(Input::Back),
    ]
}

const MAX_ENTRIES: usize = 4;

/// Design rule 6 (S11): whatever a message depends on is durable before it leaves: the term
/// it carries, a granted vote, the self-vote a RequestVote asks for, the entries an ack
/// claims. `d` is what the node had persisted when it emitted the send.
fn send_is_durable(
    d: &PersistentState,
    id: NodeId,
    to: NodeId,
    msg: &Message,
) -> Result<(), String> {
    let pre_vote = matches!(
        msg,
        Message::RequestVote { pre_vote: true, .. }
            | Message::RequestVoteResponse { pre_vote: true, .. }
    );
    if !pre_vote && d.term < msg.term() {
        return Err(format!("sent term {} before persisting it", msg.term()));
    }
    let ok = match msg {
        Message::RequestVoteResponse {
            granted: true,
            pre_vote: false,
            term,
        } => (d.term, d.voted_for) == (*term, Some(to)),
        Message::RequestVote {
            pre_vote: false,
            term,
            ..
        } => (d.term, d.voted_for) == (*term, Some(id)),
        Message::AppendEntriesResponse {
            success: true,
            match_index,
            ..
        } => d.log.len() as u64 >= *match_index,
        _ => true,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{msg:?} to {to} depends on state not yet durable: {d:?}"
        ))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn no_input_sequence_panics_and_buffers_stay_bounded(
        pre_vote in any::<bool>(),
        check_quorum in any::<bool>(),
        seed in any::<u64>(),
        inputs in prop::collection::vec(input(), 1..120),
    ) {
        let config = RaftConfig {
            id: NodeId(1),
            peers: (2..=5).map(NodeId).collect(),
            election_timeout: Duration::from_millis(100),
            heartbeat_interval: Duration::from_millis(30),
            pre_vote,
            check_quorum,
            max_entries_per_append: MAX_ENTRIES,
            seed,
            ..RaftConfig::default()
        };
        let peers = config.peers.len();
        let mut node = RaftNode::new(config).unwrap();
        let mut now = Instant::ZERO;
        let mut last_term = 0;
        let mut log_budget = 0usize;
        let mut durable = PersistentState::default();
        for input in inputs {
            let log_before = node.log().len();
            match input {
                Input::Message(from, msg) => node.handle_message(now, NodeId(from), msg),
                Input::Timeout => node.handle_timeout(node.poll_timeout().unwrap_or(now).max(now)),
                Input::Propose(c) => { let _ = node.propose(now, c); }
                Input::Campaign => { let _ = node.campaign(now); }
                Input::Advance(ms) => now = now + Duration::from_millis(ms),
                Input::Back(ms) => node.handle_timeout(now - Duration::from_millis(ms)),
            }
            let outs: Vec<RaftOutput> = std::iter::from_fn(|| node.poll_output()).collect();
            // One input yields at most a message per peer plus a reply, a few persists and
            // a few events.
            prop_assert!(outs.len() <= 2 * peers + 8, "{} outputs from one input", outs.len());
            for out in &outs {
                match out {
                    RaftOutput::Persist(op) => durable.apply(op),
                    RaftOutput::Send { to, msg } => {
                        if let Message::AppendEntries { entries, .. } = msg {
                            prop_assert!(entries.len() <= MAX_ENTRIES);
                        }
                        let checked = send_is_durable(&durable, NodeId(1), *to, msg);
                        prop_assert!(checked.is_ok(), "rule 6: {}", checked.unwrap_err());
                    }
                    RaftOutput::Event(_) => {}
                }
            }
            // Applying every Persist in order reproduces the node's state once drained, and
            // that state is one `restart` takes back.
            prop_assert_eq!(&durable, &node.persistent_state());
            prop_assert_eq!(durable.validate(), Ok(()));
            // The log grows by at most one message's worth (or one entry) per input.
            log_budget += MAX_ENTRIES + 1;
            prop_assert!(node.log().len() <= log_before + MAX_ENTRIES + 1);
            prop_assert!(node.log().len() <= log_budget);
            prop_assert!(node.term() >= last_term, "term went down");
            last_term = node.term();
            prop_assert!(node.commit_index() <= node.last_log_index());
            prop_assert!(node.votes().count() <= peers + 1);
            prop_assert!(node.poll_timeout().is_some(), "a node always waits for something");
        }
    }
}
