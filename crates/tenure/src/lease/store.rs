//! [`LeaseStore`]: the coordination store as a pure state machine.

use super::message::{
    LeaseKey, RejectReason, SessionId, StoreOp, StoreRequest, StoreResponse, StoreResult,
};
use crate::fencing::FencingToken;
use crate::id::NodeId;
use crate::time::{Clock, Duration, Instant};
use crate::vec_map::VecMap;

/// The lease last granted for a key, as the store recorded it (times on the store's clock).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LeaseRecord {
    /// Who holds (or held) it.
    pub holder: NodeId,
    /// The holder's session: the lease belongs to (`holder`, `session`) (rule 8).
    pub session: SessionId,
    /// Its fencing token.
    pub token: FencingToken,
    /// The TTL recorded at the last grant or renewal, in microseconds (rule 3).
    pub ttl: Duration,
    /// When it ends on the store's clock: valid while `now < expires_at`.
    pub expires_at: Instant,
    /// Whether it was ended early by a `Release`.
    pub released: bool,
}

impl LeaseRecord {
    /// Whether the lease is valid at store time `now`.
    pub fn is_valid(&self, now: Instant) -> bool {
        !self.released && now < self.expires_at
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct KeyState {
    last_token: Option<FencingToken>,
    lease: Option<LeaseRecord>,
}

/// A consensus-backed coordination store ("SET NX PX + INCR", or a conditional UPDATE),
/// reduced to a pure state machine holding one lease per [`LeaseKey`].
///
/// Input: [`handle`](Self::handle)`(now_store, &request)`, where `now_store` is the store's
/// own clock (us; readings that go backwards are clamped). Output: the response, or `None`
/// while the store is unavailable ([`set_available`](Self::set_available)`(false)`, an outage:
/// the request is lost and nothing changes).
///
/// Semantics (design rules 2-3 and 8):
/// - A lease belongs to a (holder, session) pair, not to a holder id (rule 8): a request
///   matches the lease only when both its `holder` and its `session` do.
/// - `Acquire { ttl }` is `Granted { token, ttl }` when the key has no valid lease; the token
///   is one more than the key's last (the first is 1). While another (holder, session)'s
///   lease is valid it is `Held { holder: Some(holder), remaining: Some(..) }`, also when
///   only the session differs: a second instance claiming the same holder id is kept out and
///   never shares the token (CURATOR-696), and the `holder` it is told is its own id, which
///   is how it learns of the clash. A re-acquire by the valid (holder, session) is an
///   idempotent grant: same token, and the lease is extended to `now + ttl` like a renewal.
/// - `Renew { token, ttl }` is `Renewed { token, ttl }` (lease extended to `now + ttl`, token
///   unchanged) or `Rejected` with [`RejectReason::NotHolder`] (no lease, or another
///   holder's or session's), [`RejectReason::TokenMismatch`], or [`RejectReason::Expired`]
///   (expired on the store's clock, or released).
/// - `Release { token }` is `Released` when the requester's (holder, session) lease carries
///   `token` (valid or not: releasing twice is harmless), else `Rejected`.
/// - Expiry is judged on the store's clock with the TTL recorded with the lease (rule 3).
///   Tokens never grow on renewal and are never reused, even after release or expiry
///   (rule 2).
///
/// Memory: one small entry per distinct key ever seen. It is kept after release and expiry
/// because the key's last token must survive them (rule 2).
/// The entries are a sorted vector: a request finds its key by bisection, and a key never
/// seen before moves the entries after it (a store holds a few keys).
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LeaseStore {
    clock: Clock,
    unavailable: bool,
    keys: VecMap<LeaseKey, KeyState>,
}

impl LeaseStore {
    /// An empty, available store.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the store up (`true`, the default) or down (`false`: an outage in which
    /// [`handle`](Self::handle) answers nothing and changes nothing).
    pub fn set_available(&mut self, available: bool) {
        self.unavailable = !available;
    }

    /// Whether the store answers requests.
    pub fn is_available(&self) -> bool {
        !self.unavailable
    }

    /// Handles one request at `now_store` (the store's clock, us) and returns the response,
    /// or `None` during an outage.
    pub fn handle(&mut self, now_store: Instant, req: &StoreRequest) -> Option<StoreResponse> {
        let now = self.clock.observe(now_store);
        if self.unavailable {
            return None;
        }
        let state = self.keys.get_or_insert_default(&req.key);
        let who = Owner {
            holder: req.holder,
            session: req.session,
        };
        let result = match req.op {
            StoreOp::Acquire { ttl } => acquire(state, now, who, ttl),
            StoreOp::Renew { token, ttl } => renew(state, now, who, token, ttl),
            StoreOp::Release { token } => release(state, now, who, token),
        };
        Some(StoreResponse {
            id: req.id,
            key: req.key.clone(),
            result,
        })
    }

    /// The valid holder of `key` at store time `now` (clamped to the latest seen): its id,
    /// token and expiry on the store's clock.
    pub fn holder(&self, key: &LeaseKey, now: Instant) -> Option<(NodeId, FencingToken, Instant)> {
        let now = now.max(self.clock.now());
        self.lease(key)
            .filter(|l| l.is_valid(now))
            .map(|l| (l.holder, l.token, l.expires_at))
    }

    /// The last token issued for `key`, `None` before its first grant.
    pub fn last_token(&self, key: &LeaseKey) -> Option<FencingToken> {
        self.keys.get(key).and_then(|s| s.last_token)
    }

    /// Continues the token sequence of a predecessor store that issued `key`'s tokens up to
    /// `last_issued`: the next grant is above it. Tokens only move up, never back (rule 2),
    /// so a call with a token at or below the last one issued changes nothing.
    pub fn continue_tokens_after(&mut self, key: LeaseKey, last_issued: FencingToken) {
        let state = self.keys.get_or_insert_default(&key);
        if state.last_token.is_none_or(|t| t < last_issued) {
            state.last_token = Some(last_issued);
        }
    }

    /// The lease last granted for `key`, valid or not (see [`LeaseRecord::is_valid`]).
    pub fn lease(&self, key: &LeaseKey) -> Option<LeaseRecord> {
        self.keys.get(key).and_then(|s| s.lease)
    }

    /// Every key the store has seen, in order.
    pub fn keys(&self) -> impl Iterator<Item = &LeaseKey> + '_ {
        self.keys.keys()
    }

    /// The latest store-clock reading seen.
    pub fn now(&self) -> Instant {
        self.clock.now()
    }
}

/// Whom a request speaks for: a lease matches only when both parts do (rule 8).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Owner {
    holder: NodeId,
    session: SessionId,
}

impl Owner {
    fn owns(self, lease: &LeaseRecord) -> bool {
        lease.holder == self.holder && lease.session == self.session
    }
}

fn acquire(state: &mut KeyState, now: Instant, who: Owner, ttl: Duration) -> StoreResult {
    if let Some(lease) = state.lease.as_mut().filter(|l| l.is_valid(now)) {
        if !who.owns(lease) {
            // Another session, even under the same holder id, is kept out (rule 8).
            return StoreResult::Held {
                holder: Some(lease.holder),
                remaining: Some(lease.expires_at.saturating_since(now)),
            };
        }
        // Idempotent re-acquire by the valid holder: same token, extended like a renewal.
        lease.ttl = ttl;
        lease.expires_at = now.saturating_add(ttl);
        return StoreResult::Granted {
            token: lease.token,
            ttl,
        };
    }
    let next = match state.last_token {
        None => Some(FencingToken(1)),
        Some(FencingToken(t)) => t.checked_add(1).map(FencingToken),
    };
    let Some(token) = next else {
        return StoreResult::Rejected {
            reason: RejectReason::TokensExhausted,
        };
    };
    state.last_token = Some(token);
    state.lease = Some(LeaseRecord {
        holder: who.holder,
        session: who.session,
        token,
        ttl,
        expires_at: now.saturating_add(ttl),
        released: false,
    });
    StoreResult::Granted { token, ttl }
}

/// The requester's lease under `token`, or why it has none.
fn own_lease(
    state: &mut KeyState,
    who: Owner,
    token: FencingToken,
) -> Result<&mut LeaseRecord, RejectReason> {
    match state.lease.as_mut() {
        Some(lease) if !who.owns(lease) => Err(RejectReason::NotHolder),
        Some(lease) if lease.token != token => Err(RejectReason::TokenMismatch),
        Some(lease) => Ok(lease),
        None => Err(RejectReason::NotHolder),
    }
}

fn renew(
    state: &mut KeyState,
    now: Instant,
    who: Owner,
    token: FencingToken,
    ttl: Duration,
) -> StoreResult {
    match own_lease(state, who, token) {
        Ok(lease) if lease.is_valid(now) => {
            lease.ttl = ttl;
            lease.expires_at = now.saturating_add(ttl);
            StoreResult::Renewed { token, ttl }
        }
        Ok(_) => StoreResult::Rejected {
            reason: RejectReason::Expired,
        },
        Err(reason) => StoreResult::Rejected { reason },
    }
}

fn release(state: &mut KeyState, now: Instant, who: Owner, token: FencingToken) -> StoreResult {
    match own_lease(state, who, token) {
        Ok(lease) => {
            if lease.is_valid(now) {
                lease.expires_at = now;
            }
            lease.released = true;
            StoreResult::Released
        }
        Err(reason) => StoreResult::Rejected { reason },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lease::message::RequestId;

    const K: &str = "k";

    /// A request from `holder`, in that holder's own session (numbered like the holder).
    fn req(holder: u64, op: StoreOp) -> StoreRequest {
        req_in(holder, holder, op)
    }
    fn req_in(holder: u64, session: u64, op: StoreOp) -> StoreRequest {
        StoreRequest {
            id: RequestId(9),
            key: LeaseKey::from(K),
            holder: NodeId(holder),
            session: SessionId(session),
            op,
        }
    }
    fn acq(ttl_ms: u64) -> StoreOp {
        StoreOp::Acquire {
            ttl: Duration::from_millis(ttl_ms),
        }
    }
    fn renew(token: u64, ttl_ms: u64) -> StoreOp {
        StoreOp::Renew {
            token: FencingToken(token),
            ttl: Duration::from_millis(ttl_ms),
        }
    }
    fn rel(token: u64) -> StoreOp {
        StoreOp::Release {
            token: FencingToken(token),
        }
    }
    fn at(s: &mut LeaseStore, ms: u64, holder: u64, op: StoreOp) -> StoreResult {
        let r = s
            .handle(Instant::from_millis(ms), &req(holder, op))
            .unwrap();
        assert_eq!(r.id, RequestId(9), "the id is echoed");
        r.result
    }
    fn granted(token: u64, ttl_ms: u64) -> StoreResult {
        StoreResult::Granted {
            token: FencingToken(token),
            ttl: Duration::from_millis(ttl_ms),
        }
    }
    fn rejected(reason: RejectReason) -> StoreResult {
        StoreResult::Rejected { reason }
    }

    #[test]
    fn first_grant_is_token_1_and_others_see_held() {
        let mut s = LeaseStore::new();
        assert_eq!(s.last_token(&K.into()), None);
        assert_eq!(at(&mut s, 0, 1, acq(100)), granted(1, 100));
        assert_eq!(
            at(&mut s, 30, 2, acq(100)),
            StoreResult::Held {
                holder: Some(NodeId(1)),
                remaining: Some(Duration::from_millis(70))
            }
        );
        assert_eq!(
            s.holder(&K.into(), Instant::from_millis(30)),
            Some((NodeId(1), FencingToken(1), Instant::from_millis(100)))
        );
    }

    #[test]
    fn continued_tokens_start_above_the_predecessor_and_never_go_back() {
        let mut s = LeaseStore::new();
        s.continue_tokens_after(K.into(), FencingToken(40));
        assert_eq!(at(&mut s, 0, 1, acq(100)), granted(41, 100));
        s.continue_tokens_after(K.into(), FencingToken(3));
        assert_eq!(s.last_token(&K.into()), Some(FencingToken(41)));
    }

    #[test]
    fn reacquire_by_holder_is_idempotent_and_extends() {
        let mut s = LeaseStore::new();
        at(&mut s, 0, 1, acq(100));
        assert_eq!(at(&mut s, 50, 1, acq(100)), granted(1, 100));
        assert_eq!(
            s.lease(&K.into()).unwrap().expires_at,
            Instant::from_millis(150)
        );
        assert_eq!(s.last_token(&K.into()), Some(FencingToken(1)));
    }

    #[test]
    fn rule2_tokens_grow_per_grant_never_on_renewal_never_reused() {
        // design rule 2.
        let mut s = LeaseStore::new();
        assert_eq!(at(&mut s, 0, 1, acq(100)), granted(1, 100));
        assert_eq!(
            at(&mut s, 50, 1, renew(1, 100)),
            StoreResult::Renewed {
                token: FencingToken(1),
                ttl: Duration::from_millis(100)
            }
        );
        assert_eq!(at(&mut s, 60, 1, rel(1)), StoreResult::Released);
        // Same holder after release: a new grant, a new token.
        assert_eq!(at(&mut s, 61, 1, acq(100)), granted(2, 100));
        // Expiry, then the same holder again: new token.
        assert_eq!(at(&mut s, 161, 1, acq(100)), granted(3, 100));
        // Expiry, then another holder.
        assert_eq!(at(&mut s, 300, 2, acq(100)), granted(4, 100));
    }

    #[test]
    fn rule3_expiry_uses_the_recorded_ttl_on_the_store_clock() {
        // design rule 3; scenario S05 (kubernetes/kubernetes#47671).
        let mut s = LeaseStore::new();
        at(&mut s, 0, 1, acq(30_000));
        for t in (2_000..30_000).step_by(2_000) {
            assert!(matches!(
                at(&mut s, t, 2, acq(10_000)),
                StoreResult::Held { .. }
            ));
        }
        assert_eq!(at(&mut s, 30_000, 2, acq(10_000)), granted(2, 10_000));
    }

    #[test]
    fn renew_rejections_name_the_reason() {
        let mut s = LeaseStore::new();
        assert_eq!(
            at(&mut s, 0, 1, renew(1, 100)),
            rejected(RejectReason::NotHolder)
        );
        at(&mut s, 0, 1, acq(100));
        assert_eq!(
            at(&mut s, 10, 2, renew(1, 100)),
            rejected(RejectReason::NotHolder)
        );
        assert_eq!(
            at(&mut s, 10, 1, renew(7, 100)),
            rejected(RejectReason::TokenMismatch)
        );
        // S07: renewing a lease that already expired on the store fails.
        assert_eq!(
            at(&mut s, 100, 1, renew(1, 100)),
            rejected(RejectReason::Expired)
        );
        at(&mut s, 100, 1, acq(100));
        at(&mut s, 110, 1, rel(2));
        assert_eq!(
            at(&mut s, 120, 1, renew(2, 100)),
            rejected(RejectReason::Expired)
        );
    }

    #[test]
    fn release_is_idempotent_and_checks_holder_and_token() {
        let mut s = LeaseStore::new();
        at(&mut s, 0, 1, acq(100));
        assert_eq!(at(&mut s, 10, 2, rel(1)), rejected(RejectReason::NotHolder));
        assert_eq!(
            at(&mut s, 10, 1, rel(3)),
            rejected(RejectReason::TokenMismatch)
        );
        assert_eq!(at(&mut s, 10, 1, rel(1)), StoreResult::Released);
        assert_eq!(at(&mut s, 11, 1, rel(1)), StoreResult::Released);
        assert_eq!(s.holder(&K.into(), Instant::from_millis(11)), None);
        assert_eq!(at(&mut s, 12, 2, acq(100)), granted(2, 100));
    }

    #[test]
    fn outage_answers_nothing_and_changes_nothing() {
        let mut s = LeaseStore::new();
        s.set_available(false);
        assert!(!s.is_available());
        assert_eq!(s.handle(Instant::ZERO, &req(1, acq(100))), None);
        assert_eq!(s.last_token(&K.into()), None);
        s.set_available(true);
        assert_eq!(at(&mut s, 1, 1, acq(100)), granted(1, 100));
    }

    #[test]
    fn s08_store_clock_going_backwards_is_clamped() {
        // S08 setup 1 (hashicorp/raft#108): a reading 1 h back neither expires nor extends.
        let mut s = LeaseStore::new();
        at(&mut s, 3_600_000, 1, acq(100));
        assert!(
            matches!(at(&mut s, 0, 2, acq(100)), StoreResult::Held { remaining, .. }
            if remaining == Some(Duration::from_millis(100)))
        );
        assert_eq!(at(&mut s, 3_600_100, 2, acq(100)), granted(2, 100));
    }

    #[test]
    fn keys_are_independent() {
        let mut s = LeaseStore::new();
        at(&mut s, 0, 1, acq(100));
        let other = StoreRequest {
            key: LeaseKey::from("other"),
            ..req(2, acq(100))
        };
        let r = s.handle(Instant::ZERO, &other).unwrap();
        assert_eq!(r.result, granted(1, 100));
        assert_eq!(r.key, LeaseKey::from("other"));
        assert_eq!(s.keys().count(), 2);
    }

    #[test]
    fn token_space_exhaustion_is_a_rejection_not_a_wrap() {
        let mut s = LeaseStore::new();
        s.keys.insert(
            K.into(),
            KeyState {
                last_token: Some(FencingToken(u64::MAX)),
                lease: None,
            },
        );
        assert_eq!(
            at(&mut s, 0, 1, acq(100)),
            rejected(RejectReason::TokensExhausted)
        );
        assert_eq!(s.last_token(&K.into()), Some(FencingToken(u64::MAX)));
    }

    fn in_session(
        s: &mut LeaseStore,
        ms: u64,
        holder: u64,
        session: u64,
        op: StoreOp,
    ) -> StoreResult {
        s.handle(Instant::from_millis(ms), &req_in(holder, session, op))
            .unwrap()
            .result
    }

    #[test]
    fn rule8_another_session_of_the_same_holder_is_held_out() {
        // design rule 8; apache/curator CURATOR-696: two instances configured with holder 7.
        let mut s = LeaseStore::new();
        assert_eq!(in_session(&mut s, 0, 7, 100, acq(100)), granted(1, 100));
        assert_eq!(
            in_session(&mut s, 10, 7, 200, acq(100)),
            StoreResult::Held {
                holder: Some(NodeId(7)),
                remaining: Some(Duration::from_millis(90))
            },
            "the second session is told its own holder id: the clash"
        );
        // It can neither renew nor release the first session's lease, token known or not.
        assert_eq!(
            in_session(&mut s, 20, 7, 200, renew(1, 100)),
            rejected(RejectReason::NotHolder)
        );
        assert_eq!(
            in_session(&mut s, 20, 7, 200, rel(1)),
            rejected(RejectReason::NotHolder)
        );
        assert!(s.holder(&K.into(), Instant::from_millis(20)).is_some());
        // The owning session re-acquires idempotently; the other still waits.
        assert_eq!(in_session(&mut s, 50, 7, 100, acq(100)), granted(1, 100));
        assert!(matches!(
            in_session(&mut s, 60, 7, 200, acq(100)),
            StoreResult::Held { .. }
        ));
        // Once the first session's lease expires, the second gets a new token, never token 1.
        assert_eq!(in_session(&mut s, 150, 7, 200, acq(100)), granted(2, 100));
        assert_eq!(s.lease(&K.into()).unwrap().session, SessionId(200));
        // Now the first session is the outsider.
        assert_eq!(
            in_session(&mut s, 160, 7, 100, renew(1, 100)),
            rejected(RejectReason::NotHolder)
        );
    }
}
