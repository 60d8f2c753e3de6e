//! Fuzz target bodies, one per machine: each decodes arbitrary bytes into a sequence of
//! inputs to a small cluster (deliver, duplicate, drop or reorder a message in flight,
//! advance the clock, fire timers, propose, campaign, forge a message) and asserts what the
//! design promises for every input sequence (docs/design.md, "The sans-IO contract"):
//! no panic, and bounded work — the outputs of one input and the messages in flight stay
//! under a stated bound, so a resend storm or an election round per message fails the run.
//!
//! The same bodies run under libFuzzer (`cargo +nightly fuzz run raft`) and on stable from a
//! seeded generator (`cargo run --release --bin smoke`).

use tenure::bully::{BullyConfig, BullyMessage, BullyNode, BullyOutput};
use tenure::lease::{
    CandidateOutput, LeaseCandidate, LeaseConfig, LeaseStore, StoreRequest, StoreResponse,
};
use tenure::raft::{Entry, EntryData, Message, RaftConfig, RaftEvent, RaftNode, RaftOutput};
use tenure::{Duration, Instant, NodeId};

/// Reads the fuzzer's bytes as small numbers; zeros once they run out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }
    fn u64(&mut self) -> u64 {
        let mut v = 0u64;
        for _ in 0..8 {
            v = (v << 8) | u64::from(self.u8());
        }
        v
    }
    /// Mostly small values, sometimes huge ones (terms and indexes near `u64::MAX`).
    fn number(&mut self) -> u64 {
        match self.u8() % 8 {
            0 => self.u64(),
            1 => u64::MAX - u64::from(self.u8()),
            _ => u64::from(self.u8() % 16),
        }
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Most inputs one run applies, so one case stays fast.
const MAX_INPUTS: usize = 2_000;

/// Messages in flight are capped like a real network's buffers: beyond this the oldest is
/// lost. Reaching it is no failure; what is asserted is the outputs of each input.
const MAX_IN_FLIGHT: usize = 512;

fn push_bounded<T>(queue: &mut Vec<T>, item: T) {
    if queue.len() >= MAX_IN_FLIGHT {
        queue.remove(0);
    }
    queue.push(item);
}

/// Three Raft nodes (PreVote, CheckQuorum, the leader lease and a small window decided by the
/// input). Asserts: no panic; at most one leader per term; one input's outputs stay under
/// `peers x (window + 2) + 8` (a heartbeat sends one message per follower; an answer sends
/// only what it makes newly sendable); the log grows only by proposals and no-ops.
pub fn raft(data: &[u8]) {
    let mut b = Bytes(data);
    let flags = b.u8();
    let window = usize::from(b.u8() % 4) + 1;
    let ids = [NodeId(1), NodeId(2), NodeId(3)];
    let mut nodes: Vec<RaftNode> = ids
        .iter()
        .map(|&id| {
            let config = RaftConfig {
                id,
                peers: ids.iter().copied().filter(|p| *p != id).collect(),
                election_timeout: Duration::from_millis(100),
                heartbeat_interval: Duration::from_millis(30),
                election_timeout_max: (flags & 8 != 0).then(|| Duration::from_millis(105)),
                pre_vote: flags & 1 != 0,
                check_quorum: flags & 2 != 0 || flags & 4 != 0,
                leader_lease: flags & 4 != 0,
                max_entries_per_append: 4,
                max_inflight_appends: window,
                seed: u64::from(flags),
                ..RaftConfig::default()
            };
            RaftNode::new(config).unwrap_or_else(|e| panic!("valid config: {e}"))
        })
        .collect();
    let per_input = 2 * (window + 2) + 8;
    let mut wire: Vec<(NodeId, NodeId, Message)> = Vec::new();
    let mut leaders: std::collections::BTreeMap<u64, NodeId> = std::collections::BTreeMap::new();
    let mut now = Instant::ZERO;
    let mut appended = 0u64;
    for _ in 0..MAX_INPUTS {
        if b.is_empty() {
            break;
        }
        let op = b.u8();
        let n = usize::from(b.u8() % 3);
        let Some(node) = nodes.get_mut(n) else {
            continue;
        };
        match op % 9 {
            0 => now = now.saturating_add(Duration::from_millis(u64::from(b.u8()))),
            1 => node.handle_timeout(now),
            2 => {
                if node.propose(now, u64::from(b.u8())).is_ok() {
                    appended += 1;
                }
            }
            3 => {
                let _ = node.campaign(now);
            }
            4..=6 if !wire.is_empty() => {
                // Deliver (4), deliver and keep a duplicate (5), or drop (6) a message,
                // picked anywhere in flight: reordering.
                let i = usize::from(b.u8()) % wire.len();
                let (from, to, msg) = if op % 9 == 5 {
                    wire[i].clone()
                } else {
                    wire.remove(i)
                };
                if op % 9 != 6 {
                    let Some(to_node) =
                        nodes.get_mut(usize::try_from(to.0).unwrap_or(0).wrapping_sub(1))
                    else {
                        continue;
                    };
                    to_node.handle_message(now, from, msg);
                    drain_raft(to_node, &mut wire, &mut leaders, per_input);
                }
                continue;
            }
            7 => {
                // A forged message from a peer or a stranger.
                let from = NodeId(u64::from(b.u8() % 5));
                let msg = forged(&mut b);
                if let Message::AppendEntries { entries, .. } = &msg {
                    appended += entries.len() as u64;
                }
                node.handle_message(now, from, msg);
            }
            _ => now = now.saturating_add(Duration::from_micros(b.u64() % 1_000_000)),
        }
        drain_raft(&mut nodes[n], &mut wire, &mut leaders, per_input);
    }
    for node in &nodes {
        // Only proposals, one no-op per won term and forged entries ever enter a log.
        let bound = appended + leaders.len() as u64;
        assert!(
            node.last_log_index() <= bound,
            "log {} > {bound}",
            node.last_log_index()
        );
    }
}

/// A forged message. Granted votes are not forged: a peer that lies about its vote can make
/// two leaders in a term in any Raft, and election safety is asserted here.
fn forged(b: &mut Bytes<'_>) -> Message {
    let term = b.number();
    match b.u8() % 4 {
        0 => Message::RequestVote {
            term,
            last_log_index: b.number(),
            last_log_term: b.number(),
            pre_vote: b.u8() & 1 == 1,
        },
        1 => Message::RequestVoteResponse {
            term,
            granted: false,
            pre_vote: b.u8() & 1 == 1,
        },
        2 => {
            let count = usize::from(b.u8() % 6);
            let entries = (0..count)
                .map(|_| Entry {
                    term: b.number(),
                    data: EntryData::Command(u64::from(b.u8())),
                })
                .collect();
            Message::AppendEntries {
                term,
                prev_log_index: b.number(),
                prev_log_term: b.number(),
                entries,
                leader_commit: b.number(),
                context: b.number(),
            }
        }
        _ => Message::AppendEntriesResponse {
            term,
            success: b.u8() & 1 == 1,
            match_index: b.number(),
            context: b.u64(),
        },
    }
}

fn drain_raft(
    node: &mut RaftNode,
    wire: &mut Vec<(NodeId, NodeId, Message)>,
    leaders: &mut std::collections::BTreeMap<u64, NodeId>,
    per_input: usize,
) {
    let mut outputs = 0;
    while let Some(out) = node.poll_output() {
        outputs += 1;
        match out {
            RaftOutput::Send { to, msg } => push_bounded(wire, (node.id(), to, msg)),
            RaftOutput::Event(RaftEvent::BecameLeader { term }) => {
                let other = *leaders.entry(term).or_insert(node.id());
                assert_eq!(other, node.id(), "two leaders in term {term}");
            }
            _ => {}
        }
    }
    assert!(
        outputs <= per_input,
        "{outputs} outputs from one input (bound {per_input})"
    );
}

/// Three Bully nodes. Asserts: no panic; one input's outputs stay under the node's queue
/// bound `2 (peers + 8)`, and what the node actually sends per input under
/// `2 (peers + 1)` (one round per epoch, not per message).
pub fn bully(data: &[u8]) {
    let mut b = Bytes(data);
    let ids = [NodeId(1), NodeId(2), NodeId(3)];
    let seed = u64::from(b.u8());
    let mut nodes: Vec<BullyNode> = ids
        .iter()
        .map(|&id| {
            BullyNode::new(BullyConfig {
                id,
                peers: ids.iter().copied().filter(|p| *p != id).collect(),
                seed,
                ..BullyConfig::default()
            })
            .unwrap_or_else(|e| panic!("valid config: {e}"))
        })
        .collect();
    let mut wire: Vec<(NodeId, NodeId, BullyMessage)> = Vec::new();
    let mut now = Instant::ZERO;
    for _ in 0..MAX_INPUTS {
        if b.is_empty() {
            break;
        }
        let op = b.u8();
        let n = usize::from(b.u8() % 3);
        match op % 7 {
            0 => now = now.saturating_add(Duration::from_millis(u64::from(b.u8()))),
            1 => nodes[n].handle_timeout(now),
            2 => nodes[n].start_election(now),
            3..=5 if !wire.is_empty() => {
                let i = usize::from(b.u8()) % wire.len();
                let (from, to, msg) = if op % 7 == 4 { wire[i] } else { wire.remove(i) };
                if op % 7 != 5 {
                    let t = usize::try_from(to.0).unwrap_or(0).wrapping_sub(1);
                    let Some(node) = nodes.get_mut(t) else {
                        continue;
                    };
                    node.handle_message(now, from, msg);
                    drain_bully(node, &mut wire);
                }
                continue;
            }
            _ => {
                let from = NodeId(u64::from(b.u8() % 5));
                let epoch = b.number();
                let msg = match b.u8() % 4 {
                    0 => BullyMessage::Election { epoch },
                    1 => BullyMessage::Answer { epoch },
                    2 => BullyMessage::Coordinator {
                        coordinator: NodeId(u64::from(b.u8() % 5)),
                        epoch,
                    },
                    _ => BullyMessage::Heartbeat { epoch },
                };
                nodes[n].handle_message(now, from, msg);
            }
        }
        drain_bully(&mut nodes[n], &mut wire);
    }
}

fn drain_bully(node: &mut BullyNode, wire: &mut Vec<(NodeId, NodeId, BullyMessage)>) {
    let mut sends = 0;
    let mut outputs = 0;
    while let Some(out) = node.poll_output() {
        outputs += 1;
        if let BullyOutput::Send { to, msg } = out {
            sends += 1;
            push_bounded(wire, (node.id(), to, msg));
        }
    }
    assert!(outputs <= 2 * (2 + 8), "{outputs} outputs from one input");
    assert!(sends <= 2 * (2 + 1), "{sends} sends from one input");
}

/// Two lease contenders and a store. Asserts: no panic; at most one contender believes it
/// leads at any instant under one shared clock (rule 4); one input's outputs and the
/// requests a contender has outstanding stay bounded.
pub fn lease(data: &[u8]) {
    let mut b = Bytes(data);
    let seed = u64::from(b.u8());
    let mut candidates: Vec<LeaseCandidate> = [1u64, 2]
        .iter()
        .map(|&h| {
            LeaseCandidate::new(LeaseConfig {
                holder: NodeId(h),
                seed: seed.wrapping_add(h),
                ..LeaseConfig::default()
            })
            .unwrap_or_else(|e| panic!("valid config: {e}"))
        })
        .collect();
    let mut store = LeaseStore::new();
    let mut to_store: Vec<(usize, StoreRequest)> = Vec::new();
    let mut to_candidates: Vec<(usize, StoreResponse)> = Vec::new();
    let mut now = Instant::ZERO;
    for _ in 0..MAX_INPUTS {
        if b.is_empty() {
            break;
        }
        let op = b.u8();
        let c = usize::from(b.u8() % 2);
        match op % 9 {
            0 => now = now.saturating_add(Duration::from_millis(u64::from(b.u8()) * 20)),
            1 => candidates[c].handle_timeout(now),
            2 => candidates[c].campaign(now),
            3 => candidates[c].release(now),
            4 | 5 if !to_store.is_empty() => {
                let i = usize::from(b.u8()) % to_store.len();
                let (from, req) = if op % 9 == 5 {
                    to_store[i].clone()
                } else {
                    to_store.remove(i)
                };
                if let Some(resp) = store.handle(now, &req) {
                    push_bounded(&mut to_candidates, (from, resp));
                }
                continue;
            }
            6 | 7 if !to_candidates.is_empty() => {
                let i = usize::from(b.u8()) % to_candidates.len();
                let (to, resp) = if op % 9 == 7 {
                    to_candidates[i].clone()
                } else {
                    to_candidates.remove(i)
                };
                candidates[to].handle_response(now, &resp);
                drain_lease(&mut candidates[to], to, &mut to_store);
                continue;
            }
            _ => {
                if !to_store.is_empty() {
                    to_store.remove(usize::from(b.u8()) % to_store.len());
                }
            }
        }
        drain_lease(&mut candidates[c], c, &mut to_store);
        let leading = candidates
            .iter_mut()
            .filter_map(|c| c.assert_leadership(now).ok())
            .count();
        for (i, c) in candidates.iter_mut().enumerate() {
            drain_lease(c, i, &mut to_store);
        }
        assert!(leading <= 1, "{leading} contenders lead at {now}");
    }
}

fn drain_lease(c: &mut LeaseCandidate, i: usize, to_store: &mut Vec<(usize, StoreRequest)>) {
    let mut outputs = 0;
    while let Some(out) = c.poll_output() {
        outputs += 1;
        if let CandidateOutput::Send(req) = out {
            push_bounded(to_store, (i, req));
        }
    }
    assert!(outputs <= 64, "{outputs} outputs from one input");
    assert!(
        c.outstanding_requests() <= 64,
        "{} requests outstanding",
        c.outstanding_requests()
    );
}
