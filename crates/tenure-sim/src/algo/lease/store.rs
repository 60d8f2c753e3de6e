//! The store's side of the lease world: the store a world starts with, a request arriving
//! (with the checker's view of each grant), and the store's snapshot view.

use super::*;

/// The largest `config.first_token` and `config.holder_id`: 2^32. A run issues far fewer than
/// 2^53 - 2^32 tokens, so every token and holder id a run shows stays a whole number that a
/// JavaScript number holds exactly (above 2^53 - 1 it would lose digits, and the `tenure/sim`
/// outputs, which give tokens and holders as JS numbers, would have to refuse them).
pub(super) const MAX_CHOSEN_ID: u64 = 1 << 32;

/// Refuses a `config.holder_id` above [`MAX_CHOSEN_ID`].
pub(super) fn check_holder_id(holder: Option<u64>) -> Result<(), ScenarioError> {
    match holder {
        Some(h) if h > MAX_CHOSEN_ID => Err(chosen_id_range("holder_id", h, 0)),
        _ => Ok(()),
    }
}

fn chosen_id_range(key: &str, value: u64, least: u64) -> ScenarioError {
    ScenarioError::Invalid(format!(
        "lease config: {key} {value} is not from {least} to 2 ** 32 ({MAX_CHOSEN_ID}; so that every \
         token and holder id of a run stays a whole JS number)"
    ))
}

/// The store, continuing a predecessor's tokens when `config.first_token` asks for it.
pub(super) fn first_store(
    base: &LeaseConfig,
    first: Option<u64>,
) -> Result<LeaseStore, ScenarioError> {
    let mut store = LeaseStore::new();
    match first {
        Some(0) => Err(ScenarioError::Invalid(String::from(
            "lease config: first_token 0 is below 1 (tokens start at 1)",
        ))),
        Some(t) if t > MAX_CHOSEN_ID => Err(chosen_id_range("first_token", t, 1)),
        Some(t) => {
            store.continue_tokens_after(base.key.clone(), FencingToken(t - 1));
            Ok(store)
        }
        None => Ok(store),
    }
}

impl LeaseAdapter {
    pub(super) fn deliver_to_store(&mut self, env: &mut Env<'_>, from: usize, payload: Payload) {
        let Payload::StoreRequest(req) = payload else {
            return;
        };
        let store = self.store_idx();
        if self.refuse_renewals && matches!(req.op, tenure::lease::StoreOp::Renew { .. }) {
            return env.send(store, from, driver::refused_renewal(&req));
        }
        let now = env.local(store);
        let Some(resp) = self.store.handle(now, &req) else {
            env.node(store, NodeEvent::RequestSwallowed { value: req.id.0 });
            return;
        };
        // The checker names the node (the process), whatever holder id it claims.
        let node = id_of(from);
        match resp.result {
            StoreResult::Granted { token, ttl } => {
                self.checker
                    .on_grant(now, node, req.session, token.0, ttl, &mut self.found);
            }
            StoreResult::Renewed { token, ttl } => {
                self.checker
                    .on_renew(now, node, req.session, token.0, ttl, &mut self.found);
            }
            StoreResult::Released => self.checker.on_release(now, req.session),
            _ => {}
        }
        env.findings(std::mem::take(&mut self.found));
        env.send(store, from, Payload::StoreResponse(resp));
    }

    pub(super) fn store_view_now(&self, env: &Env<'_>) -> StoreView {
        let store_now = env.local(self.store_idx());
        let held = self.store.holder(&self.base.key, store_now);
        let clock = env
            .clocks
            .get(self.store_idx())
            .copied()
            .unwrap_or_default();
        let ttl = held
            .and_then(|_| self.store.lease(&self.base.key))
            .map(|l| l.ttl);
        StoreView {
            holder: held.map(|h| h.0.0),
            token: held.map(|h| h.1.0),
            expiry_us: held.map(|h| h.2.as_micros()),
            expiry_true_us: held.map(|h| clock.true_time_of(env.now, h.2).as_micros()),
            last_token: self.store.last_token(&self.base.key).map(|t| t.0),
            ttl_us: ttl.map(Duration::as_micros),
            available: self.store.is_available(),
        }
    }
}
