//! Raft's safety properties, checked incrementally from terms, log changes and commits.

use super::node_table::NodeTable;
use super::prefix_table::PrefixTable;
use super::{Finding, InvariantKind};
use crate::process::Proc;
use tenure::NodeId;

/// One log entry as the checker sees it: its term and a code for its data.
pub type EntryCode = (u64, u64);

#[derive(Clone, Debug, Default)]
struct NodeLog {
    /// Entries `1..=base` were compacted (committed, held the same by every node).
    base: u64,
    /// The prefix hash at `base` (0 at index 0).
    base_hash: u64,
    /// Term of entry `base + i + 1`.
    terms: Vec<u64>,
    /// Hash of entries `1..=base + i + 1` (term and data), a chain.
    prefix: Vec<u64>,
    /// Highest index this node has reported committed since it last started.
    commit: u64,
    /// Its log equals the committed log (by index and term) through this index.
    agree: u64,
}

impl NodeLog {
    fn last(&self) -> u64 {
        self.base.saturating_add(self.terms.len() as u64)
    }

    fn term_at(&self, index: u64) -> Option<u64> {
        let i = usize::try_from(index.checked_sub(self.base)?.checked_sub(1)?).ok()?;
        self.terms.get(i).copied()
    }
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
///
/// Its memory is bounded by [`compact`](Self::compact): through an index every node's log
/// agrees with the committed log ([`agrees_through`](Self::agrees_through)), no invariant can
/// be broken any more (a node never rewrites a prefix it shares with every other node and the
/// committed log), so the per-index records there are dropped, as the nodes' logs drop theirs.
#[derive(Clone, Debug, Default)]
pub struct RaftChecker {
    terms: NodeTable<u64>,
    /// The leader of each term from the lowest current term up, sorted by term: a sorted
    /// `Vec` in place of a `BTreeMap` (no B-tree code in the wasm modules). A new leader's
    /// term is nearly always the highest one seen, so it goes at the end; one elected late
    /// (a candidate paused with its votes queued) moves the few entries of later terms.
    /// Terms below every node's current term are dropped ([`observe_term`](Self::observe_term)).
    leaders: Vec<(u64, NodeId)>,
    logs: NodeTable<NodeLog>,
    prefixes: PrefixTable,
    /// Entries `1..=committed_base` are committed and compacted.
    committed_base: u64,
    /// Term of committed entry `committed_base + i + 1`.
    committed: Vec<u64>,
    /// The lowest term in which entry `committed_base + i + 1` is known committed: the
    /// reporting node's term at the report (never below the entry's own term), the lowest
    /// over every report.
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

fn at(i: u64) -> usize {
    usize::try_from(i).unwrap_or(usize::MAX)
}

impl RaftChecker {
    /// An empty checker.
    pub fn new() -> Self {
        Self::default()
    }

    /// `node` is now at `term` (including right after a restart).
    pub fn observe_term(&mut self, node: NodeId, term: u64, out: &mut Vec<Finding>) {
        let last = self.terms.get_or_insert_with(node, || term);
        if term < *last {
            out.push(Finding {
                kind: InvariantKind::TermMonotonic,
                nodes: vec![Proc::Node(node)],
                detail: format!("{node} went from term {} back to term {term}", *last),
            });
        }
        let raised = term > *last;
        *last = (*last).max(term);
        // No node can still become leader in a term below every node's current term. That
        // lowest term rises only when a node's term does (a leader is recorded in its own
        // term, never below it), so an unchanged term has nothing to forget.
        if !raised {
            return;
        }
        if let Some(min) = self.terms.values().min().copied() {
            let below = self.leaders.partition_point(|&(t, _)| t < min);
            self.leaders.drain(..below);
        }
    }

    /// Moves `log.agree` up while its entries equal the committed ones (`committed[i]` is
    /// entry `base + i + 1`).
    fn advance_agree(base: u64, committed: &[u64], log: &mut NodeLog) {
        log.agree = log.agree.max(log.base);
        loop {
            let next = log.agree.saturating_add(1);
            let Some(i) = next.checked_sub(base).and_then(|d| d.checked_sub(1)) else {
                break;
            };
            match committed.get(at(i)) {
                Some(&t) if log.term_at(next) == Some(t) => log.agree = next,
                _ => break,
            }
        }
    }

    /// `node`'s log lost every entry from index `from` on and then gained `entries` there.
    /// Entries at or below its compaction point are the compacted prefix and are skipped.
    pub fn log_replaced(
        &mut self,
        node: NodeId,
        from: u64,
        entries: &[EntryCode],
        out: &mut Vec<Finding>,
    ) {
        let log = self.logs.get_or_insert_with(node, NodeLog::default);
        if from <= log.last() && from <= log.commit {
            out.push(Finding {
                kind: InvariantKind::LeaderCompleteness,
                nodes: vec![Proc::Node(node)],
                detail: format!(
                    "{node} truncated its log at index {from}, below its commit index {}",
                    log.commit
                ),
            });
        }
        let skip = at(log.base.saturating_add(1).saturating_sub(from.max(1)));
        let from = from.max(log.base.saturating_add(1));
        let keep = at(from.saturating_sub(log.base).saturating_sub(1));
        log.terms.truncate(keep);
        log.prefix.truncate(keep);
        log.agree = log.agree.min(from.saturating_sub(1));
        for &e in entries.get(skip..).unwrap_or(&[]) {
            let prev = log.prefix.last().copied().unwrap_or(log.base_hash);
            let h = chain(prev, e);
            log.terms.push(e.0);
            log.prefix.push(h);
            let index = log.last();
            match self.prefixes.get(index, e.0) {
                Some(seen) if seen != h => out.push(Finding {
                    kind: InvariantKind::LogMatching,
                    nodes: vec![Proc::Node(node)],
                    detail: format!(
                        "{node} has an entry at index {index} term {} whose preceding log differs from another node's",
                        e.0
                    ),
                }),
                Some(_) => {}
                None => {
                    self.prefixes.insert(index, e.0, h);
                }
            }
        }
        Self::advance_agree(self.committed_base, &self.committed, log);
    }

    /// `node` restarted: its volatile commit index is gone (its log survives).
    pub fn observe_restart(&mut self, node: NodeId) {
        if let Some(log) = self.logs.get_mut(node) {
            log.commit = 0;
        }
    }

    /// `node` became leader of `term`.
    pub fn observe_leader(&mut self, node: NodeId, term: u64, out: &mut Vec<Finding>) {
        match self.leaders.binary_search_by_key(&term, |&(t, _)| t) {
            Ok(i) => {
                if let Some(&(_, other)) = self.leaders.get(i)
                    && other != node
                {
                    out.push(Finding {
                        kind: InvariantKind::ElectionSafety,
                        nodes: vec![Proc::Node(other), Proc::Node(node)],
                        detail: format!("{other} and {node} were both leader in term {term}"),
                    });
                }
            }
            Err(i) => self.leaders.insert(i, (term, node)),
        }
        // Leader Completeness (Raft §5.4): an entry committed in term U is in the log of every
        // leader of a term above U. A leader of a lower term elected later in true time (a
        // candidate paused with its votes queued) owes nothing to entries committed after it.
        let log = self.logs.get_or_insert_with(node, NodeLog::default);
        let owed = self.committed.iter().zip(&self.committed_in).enumerate();
        for (i, (&t, _)) in owed.filter(|(_, (_, in_term))| **in_term < term) {
            let index = self
                .committed_base
                .saturating_add(i as u64)
                .saturating_add(1);
            // At or below its compaction point the log holds the committed prefix.
            if index > log.base && log.term_at(index) != Some(t) {
                out.push(Finding {
                    kind: InvariantKind::LeaderCompleteness,
                    nodes: vec![Proc::Node(node)],
                    detail: format!(
                        "{node} became leader of term {term} without committed entry {index} (term {t})"
                    ),
                });
                break;
            }
        }
    }

    /// `node` reports commit index `commit`.
    pub fn observe_commit(&mut self, node: NodeId, commit: u64, out: &mut Vec<Finding>) {
        let reporter_term = self.terms.get(node).copied().unwrap_or(0);
        let log = self.logs.get_or_insert_with(node, NodeLog::default);
        let from = log.commit.max(log.base).max(self.committed_base);
        log.commit = log.commit.max(commit);
        for index in from.saturating_add(1)..=commit {
            let Some(t) = log.term_at(index) else {
                out.push(Finding {
                    kind: InvariantKind::LeaderCompleteness,
                    nodes: vec![Proc::Node(node)],
                    detail: format!("{node} committed index {index} beyond its log"),
                });
                break;
            };
            let i = at(index - self.committed_base - 1);
            match self.committed.get(i) {
                Some(&c) if c != t => {
                    out.push(Finding {
                        kind: InvariantKind::LeaderCompleteness,
                        nodes: vec![Proc::Node(node)],
                        detail: format!(
                            "{node} committed index {index} with term {t}, another node committed term {c} there"
                        ),
                    });
                    break;
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
        // New committed entries may extend what every node agrees on.
        for log in self.logs.values_mut() {
            Self::advance_agree(self.committed_base, &self.committed, log);
        }
    }

    /// The highest index known committed anywhere.
    pub fn committed_len(&self) -> u64 {
        self.committed_base
            .saturating_add(self.committed.len() as u64)
    }

    /// Through which index `node`'s log equals the committed log (0 for a node never seen).
    pub fn agrees_through(&self, node: NodeId) -> u64 {
        self.logs.get(node).map_or(0, |l| l.agree)
    }

    /// Forgets every per-index record through `index`, which must be at most every node's
    /// [`agrees_through`](Self::agrees_through): the nodes' logs are compacted there too.
    /// Verdicts after are the ones the full records would give.
    pub fn compact(&mut self, index: u64) {
        let index = self
            .logs
            .values()
            .map(|l| l.agree)
            .min()
            .unwrap_or(0)
            .min(index);
        if index <= self.committed_base {
            return;
        }
        for log in self.logs.values_mut() {
            let drop = at(index.saturating_sub(log.base)).min(log.terms.len());
            if drop == 0 {
                continue;
            }
            if let Some(&h) = log.prefix.get(drop - 1) {
                log.base_hash = h;
            }
            log.terms.drain(..drop);
            log.prefix.drain(..drop);
            log.base = index;
        }
        let drop = at(index - self.committed_base).min(self.committed.len());
        self.committed.drain(..drop);
        self.committed_in.drain(..drop);
        self.committed_base = index;
        self.prefixes.forget_through(index);
    }

    /// Records held: log entries over every node, committed entries and prefix-table rows
    /// (what [`compact`](Self::compact) keeps bounded).
    pub fn records(&self) -> usize {
        let logs: usize = self.logs.values().map(|l| l.terms.len()).sum();
        logs + self.committed.len() + self.prefixes.len()
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

    #[test]
    fn after_compaction_violations_above_the_point_are_still_caught() {
        let mut c = RaftChecker::new();
        let mut out = Vec::new();
        let log = [(1, 0), (1, 1), (1, 2), (1, 3)];
        for n in [N1, N2] {
            c.observe_term(n, 1, &mut out);
            c.log_replaced(n, 1, &log, &mut out);
        }
        c.observe_commit(N1, 3, &mut out);
        assert_eq!((c.agrees_through(N1), c.agrees_through(N2)), (3, 3));
        let before = c.records();
        c.compact(9); // at most what every node agrees on: 3
        assert!(c.records() < before, "{} < {before}", c.records());
        assert_eq!(c.committed_len(), 3);
        assert!(out.is_empty(), "{out:?}");
        // Log Matching above the point: same index and term, different entries before.
        c.log_replaced(N2, 4, &[(1, 99), (1, 5)], &mut out);
        c.log_replaced(N1, 5, &[(1, 5)], &mut out);
        assert!(!out.is_empty(), "caught");
        assert!(
            out.iter().all(|f| f.kind == InvariantKind::LogMatching),
            "{out:?}"
        );
        // Leader Completeness above the point: N2 drops entry 4, N1 commits it, N2 leads a
        // later term without it.
        out.clear();
        c.log_replaced(N2, 4, &[], &mut out);
        c.observe_commit(N1, 4, &mut out);
        c.observe_term(N2, 2, &mut out);
        c.observe_leader(N2, 2, &mut out);
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(out[0].kind, InvariantKind::LeaderCompleteness);
    }
}
