//! Raft's safety properties, checked incrementally from terms, log changes and commits.

use super::{Finding, InvariantKind};
use crate::process::Proc;
use std::collections::BTreeMap;
use tenure::NodeId;

/// One log entry as the checker sees it: its term and a code for its data.
pub type EntryCode = (u64, u64);

#[derive(Clone, Debug, Default)]
struct NodeLog {
    /// Term of entry `i + 1`.
    terms: Vec<u64>,
    /// Hash of entries `1..=i + 1` (term and data), a chain.
    prefix: Vec<u64>,
    /// Highest index this node has reported committed since it last started.
    commit: u64,
}

/// Checks Election Safety, term monotonicity, Log Matching and Leader Completeness
/// (Raft §5.2-§5.4) for one cluster.
///
/// Feed it every term change ([`observe_term`](Self::observe_term)), every log change as
/// "truncate after `from - 1`, then append" ([`log_replaced`](Self::log_replaced)), every
/// leadership ([`observe_leader`](Self::observe_leader)) and every commit index
/// ([`observe_commit`](Self::observe_commit)). Log Matching is checked with a table from
/// `(index, term)` to the hash of the log prefix ending there, so each appended entry costs
/// one lookup.
#[derive(Clone, Debug, Default)]
pub struct RaftChecker {
    terms: BTreeMap<NodeId, u64>,
    leaders: BTreeMap<u64, NodeId>,
    logs: BTreeMap<NodeId, NodeLog>,
    prefixes: BTreeMap<(u64, u64), u64>,
    /// Term of committed entry `i + 1`.
    committed: Vec<u64>,
    /// The lowest term in which entry `i + 1` is known committed: the reporting node's term
    /// at the report (never below the entry's own term), the lowest over every report.
    committed_in: Vec<u64>,
}

fn chain(prev: u64, (term, data): EntryCode) -> u64 {
    let mut h = prev ^ 0x9E37_79B9_7F4A_7C15;
    for v in [term, data] {
        h = (h ^ v).wrapping_mul(0x0000_0100_0000_01b3);
        h ^= h >> 29;
    }
    h
}

fn idx(i: usize) -> u64 {
    (i as u64).saturating_add(1)
}

impl RaftChecker {
    /// An empty checker.
    pub fn new() -> Self {
        Self::default()
    }

    /// `node` is now at `term` (including right after a restart).
    pub fn observe_term(&mut self, node: NodeId, term: u64, out: &mut Vec<Finding>) {
        let last = self.terms.entry(node).or_insert(term);
        if term < *last {
            out.push(Finding {
                kind: InvariantKind::TermMonotonic,
                nodes: vec![Proc::Node(node)],
                detail: format!("{node} went from term {} back to term {term}", *last),
            });
        }
        *last = (*last).max(term);
        // No node can still become leader in a term below every node's current term.
        if let Some(min) = self.terms.values().min().copied() {
            while let Some((&t, _)) = self.leaders.first_key_value() {
                if t >= min {
                    break;
                }
                self.leaders.remove(&t);
            }
        }
    }

    /// `node`'s log lost every entry from index `from` on and then gained `entries` there.
    pub fn log_replaced(
        &mut self,
        node: NodeId,
        from: u64,
        entries: &[EntryCode],
        out: &mut Vec<Finding>,
    ) {
        let log = self.logs.entry(node).or_default();
        let keep = usize::try_from(from.saturating_sub(1)).unwrap_or(usize::MAX);
        if keep < log.terms.len() && from <= log.commit {
            out.push(Finding {
                kind: InvariantKind::LeaderCompleteness,
                nodes: vec![Proc::Node(node)],
                detail: format!(
                    "{node} truncated its log at index {from}, below its commit index {}",
                    log.commit
                ),
            });
        }
        log.terms.truncate(keep);
        log.prefix.truncate(keep);
        for &e in entries {
            let prev = log.prefix.last().copied().unwrap_or(0);
            let h = chain(prev, e);
            log.terms.push(e.0);
            log.prefix.push(h);
            let index = idx(log.terms.len() - 1);
            match self.prefixes.get(&(index, e.0)) {
                Some(&seen) if seen != h => out.push(Finding {
                    kind: InvariantKind::LogMatching,
                    nodes: vec![Proc::Node(node)],
                    detail: format!(
                        "{node} has an entry at index {index} term {} whose preceding log differs from another node's",
                        e.0
                    ),
                }),
                Some(_) => {}
                None => {
                    self.prefixes.insert((index, e.0), h);
                }
            }
        }
    }

    /// `node` restarted: its volatile commit index is gone (its log survives).
    pub fn observe_restart(&mut self, node: NodeId) {
        if let Some(log) = self.logs.get_mut(&node) {
            log.commit = 0;
        }
    }

    /// `node` became leader of `term`.
    pub fn observe_leader(&mut self, node: NodeId, term: u64, out: &mut Vec<Finding>) {
        match self.leaders.get(&term) {
            Some(&other) if other != node => out.push(Finding {
                kind: InvariantKind::ElectionSafety,
                nodes: vec![Proc::Node(other), Proc::Node(node)],
                detail: format!("{other} and {node} were both leader in term {term}"),
            }),
            _ => {
                self.leaders.insert(term, node);
            }
        }
        // Leader Completeness (Raft §5.4): an entry committed in term U is in the log of every
        // leader of a term above U. A leader of a lower term elected later in true time (a
        // candidate paused with its votes queued) owes nothing to entries committed after it.
        let log = self.logs.entry(node).or_default();
        let owed = self.committed.iter().zip(&self.committed_in).enumerate();
        for (i, (&t, _)) in owed.filter(|(_, (_, in_term))| **in_term < term) {
            if log.terms.get(i) != Some(&t) {
                out.push(Finding {
                    kind: InvariantKind::LeaderCompleteness,
                    nodes: vec![Proc::Node(node)],
                    detail: format!(
                        "{node} became leader of term {term} without committed entry {} (term {t})",
                        idx(i)
                    ),
                });
                break;
            }
        }
    }

    /// `node` reports commit index `commit`.
    pub fn observe_commit(&mut self, node: NodeId, commit: u64, out: &mut Vec<Finding>) {
        let reporter_term = self.terms.get(&node).copied().unwrap_or(0);
        let log = self.logs.entry(node).or_default();
        let from = usize::try_from(log.commit).unwrap_or(usize::MAX);
        let to = usize::try_from(commit).unwrap_or(usize::MAX);
        log.commit = log.commit.max(commit);
        for i in from..to {
            let Some(&t) = log.terms.get(i) else {
                out.push(Finding {
                    kind: InvariantKind::LeaderCompleteness,
                    nodes: vec![Proc::Node(node)],
                    detail: format!("{node} committed index {} beyond its log", idx(i)),
                });
                return;
            };
            match self.committed.get(i) {
                Some(&c) if c != t => {
                    out.push(Finding {
                        kind: InvariantKind::LeaderCompleteness,
                        nodes: vec![Proc::Node(node)],
                        detail: format!(
                            "{node} committed index {} with term {t}, another node committed term {c} there",
                            idx(i)
                        ),
                    });
                    return;
                }
                Some(_) => {
                    if let Some(in_term) = self.committed_in.get_mut(i) {
                        *in_term = (*in_term).min(reporter_term.max(t));
                    }
                }
                None => {
                    self.committed.push(t);
                    self.committed_in.push(reporter_term.max(t));
                }
            }
        }
    }

    /// The highest index known committed anywhere.
    pub fn committed_len(&self) -> u64 {
        self.committed.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const N1: NodeId = NodeId(1);
    const N2: NodeId = NodeId(2);

    #[test]
    fn two_leaders_in_one_term_are_caught() {
        let mut c = RaftChecker::new();
        let mut out = Vec::new();
        c.observe_leader(N1, 3, &mut out);
        c.observe_leader(N1, 3, &mut out);
        assert!(out.is_empty());
        c.observe_leader(N2, 3, &mut out);
        assert_eq!(out[0].kind, InvariantKind::ElectionSafety);
    }

    #[test]
    fn term_going_back_is_caught() {
        let mut c = RaftChecker::new();
        let mut out = Vec::new();
        c.observe_term(N1, 4, &mut out);
        c.observe_term(N1, 3, &mut out);
        assert_eq!(out[0].kind, InvariantKind::TermMonotonic);
    }

    #[test]
    fn diverging_prefix_with_same_index_and_term_is_caught() {
        let mut c = RaftChecker::new();
        let mut out = Vec::new();
        c.log_replaced(N1, 1, &[(1, 0), (2, 7)], &mut out);
        c.log_replaced(N2, 1, &[(1, 0), (2, 7)], &mut out);
        assert!(out.is_empty());
        c.log_replaced(N2, 1, &[(1, 5), (2, 7)], &mut out);
        assert_eq!(out[0].kind, InvariantKind::LogMatching);
    }

    #[test]
    fn leader_missing_a_committed_entry_is_caught() {
        let mut c = RaftChecker::new();
        let mut out = Vec::new();
        c.log_replaced(N1, 1, &[(1, 0), (1, 9)], &mut out);
        c.observe_commit(N1, 2, &mut out);
        c.log_replaced(N2, 1, &[(1, 0)], &mut out);
        c.observe_leader(N2, 2, &mut out);
        assert_eq!(out[0].kind, InvariantKind::LeaderCompleteness);
    }

    /// Found by `tenure check`: a candidate of term 3, paused with its votes queued, resumes
    /// and leads term 3 after the leader of term 4 committed an entry it lacks. Raft §5.4
    /// asks that entry of leaders of higher terms only, so this is no violation; a leader of
    /// term 5 without it still is.
    #[test]
    fn a_lower_term_leader_elected_later_owes_nothing_to_later_commits() {
        const N3: NodeId = NodeId(3);
        let mut c = RaftChecker::new();
        let mut out = Vec::new();
        for n in [N1, N2, N3] {
            c.observe_term(n, 3, &mut out);
        }
        c.observe_term(N1, 4, &mut out);
        c.observe_leader(N1, 4, &mut out);
        c.log_replaced(N1, 1, &[(4, 0)], &mut out);
        c.observe_commit(N1, 1, &mut out);
        c.observe_leader(N2, 3, &mut out);
        assert!(out.is_empty(), "{out:?}");
        c.observe_term(N3, 5, &mut out);
        c.observe_leader(N3, 5, &mut out);
        assert_eq!(out[0].kind, InvariantKind::LeaderCompleteness);
    }
}
