//! The lease world's safety properties: one valid holder on the store's clock, strictly
//! increasing tokens, one session per token, a resource whose highest token never falls, and
//! no stale write accepted.

use super::recent::Recent;
use super::{Finding, InvariantKind};
use crate::process::Proc;
use tenure::lease::SessionId;
use tenure::{Duration, Instant, NodeId};

/// Keep the expiry of this many recent tokens, to judge late writes.
pub(super) const KEEP_TOKENS: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Lease {
    /// The node holding it (its process, whatever holder id it claims).
    holder: NodeId,
    /// The holder's session: the lease belongs to (holder, session) (rule 8).
    session: SessionId,
    token: u64,
    /// Expiry on the store's clock.
    end: Instant,
}

/// Checks one key's leases as the store grants them, and the writes the resource judges.
///
/// Everything is judged on the store's clock (rule 3), independently of the store's own
/// bookkeeping: the checker keeps its own record of every grant, renewal and release.
/// Holders are named by node (the process), and a lease belongs to the node's session: two
/// nodes that claim one holder id, or one node's incarnations, are different sessions, and no
/// two sessions may ever hold the same token (rule 8).
///
/// A write is *stale* if its token is below one the resource has already seen (installed by
/// `establish` or an accepted write): accepting it would let a deposed leader overwrite a
/// newer generation. With fencing the resource refuses exactly these (rule 1); without, the
/// checker keeps the highest token on the side and counts them. A write is *late* if it left
/// its node after that node's lease ended on the store's clock; late is reported, but a late
/// write that no newer generation has overtaken is harmless and rule 1 accepts it.
#[derive(Clone, Debug, Default)]
pub struct LeaseChecker {
    current: Option<Lease>,
    last_token: u64,
    ends: Recent<Instant>,
    /// The session each recent token was granted to.
    sessions: Recent<(NodeId, SessionId)>,
    resource_highest: u64,
    shadow_highest: u64,
}

impl LeaseChecker {
    /// An empty checker.
    pub fn new() -> Self {
        Self::default()
    }

    /// The store granted `token` to node `holder` in `session` for `ttl` at store time `now`.
    pub fn on_grant(
        &mut self,
        now: Instant,
        holder: NodeId,
        session: SessionId,
        token: u64,
        ttl: Duration,
        out: &mut Vec<Finding>,
    ) {
        let end = now.saturating_add(ttl);
        self.check_session(holder, session, token, "granted", out);
        if let Some(cur) = self.current.filter(|c| c.end > now) {
            if cur.session != session {
                out.push(Finding {
                    kind: InvariantKind::SingleValidHolder,
                    nodes: vec![Proc::Node(cur.holder), Proc::Node(holder)],
                    detail: format!(
                        "store granted token {token} to {holder} ({session}) at store time {now} while {} ({}) held token {} until {}",
                        cur.holder, cur.session, cur.token, cur.end
                    ),
                });
            } else if cur.token != token {
                out.push(Finding {
                    kind: InvariantKind::TokenMonotonic,
                    nodes: vec![Proc::Node(holder)],
                    detail: format!(
                        "store re-granted {holder}'s valid lease with token {token} instead of {}",
                        cur.token
                    ),
                });
            }
        } else if token <= self.last_token {
            out.push(Finding {
                kind: InvariantKind::TokenMonotonic,
                nodes: vec![Proc::Node(holder)],
                detail: format!(
                    "store granted token {token} to {holder}, not above the last token {}",
                    self.last_token
                ),
            });
        }
        self.last_token = self.last_token.max(token);
        self.current = Some(Lease {
            holder,
            session,
            token,
            end,
        });
        self.ends.insert(token, end);
        self.sessions.insert_new(token, (holder, session));
        self.ends.trim();
        self.sessions.trim();
    }

    /// Rule 8: `token` is held by one session only, whichever grants or renewals name it.
    fn check_session(
        &self,
        holder: NodeId,
        session: SessionId,
        token: u64,
        what: &str,
        out: &mut Vec<Finding>,
    ) {
        if let Some(&(first, owner)) = self.sessions.get(token).filter(|(_, s)| *s != session) {
            out.push(Finding {
                kind: InvariantKind::TokenPerSession,
                nodes: vec![Proc::Node(first), Proc::Node(holder)],
                detail: format!(
                    "store {what} token {token} to {holder} ({session}), but it belongs to {first} ({owner})"
                ),
            });
        }
    }

    /// The store renewed node `holder`'s lease `token` in `session` for `ttl` at store time
    /// `now`.
    pub fn on_renew(
        &mut self,
        now: Instant,
        holder: NodeId,
        session: SessionId,
        token: u64,
        ttl: Duration,
        out: &mut Vec<Finding>,
    ) {
        self.check_session(holder, session, token, "renewed", out);
        match self.current {
            Some(cur) if cur.session == session && cur.token == token && cur.end > now => {
                let end = now.saturating_add(ttl);
                self.current = Some(Lease { end, ..cur });
                self.ends.insert(token, end);
            }
            cur => out.push(Finding {
                kind: InvariantKind::SingleValidHolder,
                nodes: vec![Proc::Node(holder)],
                detail: format!(
                    "store renewed token {token} for {holder} ({session}) at store time {now}, but the valid lease is {}",
                    cur.filter(|c| c.end > now).map_or_else(
                        || "none".to_string(),
                        |c| format!("token {} held by {} ({})", c.token, c.holder, c.session)
                    )
                ),
            }),
        }
    }

    /// The store released the lease of `session` at store time `now`.
    pub fn on_release(&mut self, now: Instant, session: SessionId) {
        if let Some(cur) = self.current.filter(|c| c.session == session) {
            self.current = None;
            self.ends.insert(cur.token, now);
        }
    }

    /// Whether a write with `token` leaving its node at store time `store_now` is late.
    pub fn is_late(&self, token: u64, store_now: Instant) -> bool {
        self.ends.get(token).is_none_or(|end| store_now >= *end)
    }

    /// The lease valid at store time `now`: `(holder, token, expiry on the store clock)`.
    pub fn valid_lease(&self, now: Instant) -> Option<(NodeId, u64, Instant)> {
        self.current
            .filter(|c| c.end > now)
            .map(|c| (c.holder, c.token, c.end))
    }

    /// The resource judged a write with `token`; `highest_after` is its highest token after.
    /// Returns whether the write was stale.
    pub fn on_write(
        &mut self,
        from: NodeId,
        token: u64,
        accepted: bool,
        highest_after: u64,
        out: &mut Vec<Finding>,
    ) -> bool {
        let stale = token < self.shadow_highest;
        if stale && accepted {
            out.push(Finding {
                kind: InvariantKind::StaleWriteAccepted,
                nodes: vec![Proc::Node(from), Proc::Resource],
                detail: format!(
                    "resource accepted {from}'s write with token {token} after token {} reached it",
                    self.shadow_highest
                ),
            });
        }
        if accepted {
            self.shadow_highest = self.shadow_highest.max(token);
        }
        self.on_resource(highest_after, out);
        stale
    }

    /// The resource's highest token is now `highest` (after an establish or a write).
    pub fn on_resource(&mut self, highest: u64, out: &mut Vec<Finding>) {
        if highest < self.resource_highest {
            out.push(Finding {
                kind: InvariantKind::ResourceTokenMonotonic,
                nodes: vec![Proc::Resource],
                detail: format!(
                    "resource highest token fell from {} to {highest}",
                    self.resource_highest
                ),
            });
        }
        self.resource_highest = self.resource_highest.max(highest);
        self.shadow_highest = self.shadow_highest.max(highest);
    }

    /// The highest token seen at the resource (the shadow count in unfenced mode).
    pub fn highest_seen(&self) -> u64 {
        self.shadow_highest
    }

    /// The last token the store granted.
    pub fn last_token(&self) -> u64 {
        self.last_token
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Instant {
        Instant::from_millis(v)
    }

    const S1: SessionId = SessionId(11);
    const S2: SessionId = SessionId(22);

    #[test]
    fn second_holder_while_first_valid_is_caught() {
        let mut c = LeaseChecker::new();
        let mut out = Vec::new();
        c.on_grant(
            ms(0),
            NodeId(1),
            S1,
            1,
            Duration::from_millis(100),
            &mut out,
        );
        c.on_grant(
            ms(50),
            NodeId(2),
            S2,
            2,
            Duration::from_millis(100),
            &mut out,
        );
        assert_eq!(out[0].kind, InvariantKind::SingleValidHolder);
    }

    #[test]
    fn reused_token_after_expiry_is_caught() {
        let mut c = LeaseChecker::new();
        let mut out = Vec::new();
        c.on_grant(
            ms(0),
            NodeId(1),
            S1,
            5,
            Duration::from_millis(100),
            &mut out,
        );
        c.on_grant(
            ms(200),
            NodeId(2),
            S2,
            5,
            Duration::from_millis(100),
            &mut out,
        );
        assert!(out.iter().any(|f| f.kind == InvariantKind::TokenMonotonic));
    }

    #[test]
    fn stale_write_counts_even_when_unfenced_resource_accepts_it() {
        let mut c = LeaseChecker::new();
        let mut out = Vec::new();
        assert!(!c.on_write(NodeId(2), 34, true, 0, &mut out));
        assert!(c.on_write(NodeId(1), 33, true, 0, &mut out));
        assert_eq!(out[0].kind, InvariantKind::StaleWriteAccepted);
    }

    #[test]
    fn late_is_judged_on_the_store_clock() {
        let mut c = LeaseChecker::new();
        let mut out = Vec::new();
        c.on_grant(
            ms(0),
            NodeId(1),
            S1,
            1,
            Duration::from_millis(100),
            &mut out,
        );
        assert!(!c.is_late(1, ms(99)));
        c.on_renew(
            ms(90),
            NodeId(1),
            S1,
            1,
            Duration::from_millis(100),
            &mut out,
        );
        assert!(!c.is_late(1, ms(150)));
        assert!(c.is_late(1, ms(190)));
        assert!(out.is_empty());
    }

    #[test]
    fn two_sessions_sharing_a_token_is_caught() {
        // Rule 8 (CURATOR-696): two nodes claiming one holder id both given token 1, the
        // second while the first's lease is valid and again after it lapsed.
        let mut c = LeaseChecker::new();
        let mut out = Vec::new();
        c.on_grant(
            ms(0),
            NodeId(1),
            S1,
            1,
            Duration::from_millis(100),
            &mut out,
        );
        assert!(out.is_empty());
        c.on_grant(
            ms(10),
            NodeId(2),
            S2,
            1,
            Duration::from_millis(100),
            &mut out,
        );
        let kinds: Vec<_> = out.iter().map(|f| f.kind).collect();
        assert!(kinds.contains(&InvariantKind::TokenPerSession), "{kinds:?}");
        assert!(
            kinds.contains(&InvariantKind::SingleValidHolder),
            "{kinds:?}"
        );
        // A renewal of token 1 in the first session is as much a breach now.
        out.clear();
        c.on_renew(
            ms(20),
            NodeId(1),
            S1,
            1,
            Duration::from_millis(100),
            &mut out,
        );
        assert!(
            out.iter()
                .all(|f| f.kind == InvariantKind::SingleValidHolder)
        );
        out.clear();
        c.on_renew(
            ms(30),
            NodeId(2),
            SessionId(33),
            1,
            Duration::from_millis(100),
            &mut out,
        );
        assert!(out.iter().any(|f| f.kind == InvariantKind::TokenPerSession));
    }

    #[test]
    fn one_session_reacquiring_its_token_is_fine() {
        let mut c = LeaseChecker::new();
        let mut out = Vec::new();
        c.on_grant(
            ms(0),
            NodeId(1),
            S1,
            1,
            Duration::from_millis(100),
            &mut out,
        );
        c.on_grant(
            ms(50),
            NodeId(1),
            S1,
            1,
            Duration::from_millis(100),
            &mut out,
        );
        c.on_renew(
            ms(90),
            NodeId(1),
            S1,
            1,
            Duration::from_millis(100),
            &mut out,
        );
        c.on_release(ms(95), S1);
        c.on_grant(
            ms(96),
            NodeId(1),
            S2,
            2,
            Duration::from_millis(100),
            &mut out,
        );
        assert!(out.is_empty(), "{out:?}");
    }
}
