// LeaseStore and LeaseCandidate through the built package: Node code
// drives candidates against a store by hand; requests and responses are plain objects, tokens
// bigint, times ms. Scenarios: `docs/scenarios.md` (S01, S02, S04, S06, S15).
import assert from "node:assert/strict";
import { test } from "node:test";
import { FencedResource, LeaseCandidate, LeaseStore } from "tenure";
import { show } from "./helpers/cluster.mjs";
import { burnTokens, drain, runUntil } from "./helpers/lease.mjs";

const KEY = "leader";

test("s01_paused_holder_is_fenced_after_a_new_leader_is_elected", () => {
  // S01 (Kleppmann, "How to do distributed locking", 2016): C1 holds token 33 from t=0 with a
  // 10 s ttl and is paused from 1 s to 15 s; C2 is elected with 34 and writes; C1 resumes and
  // writes with 33 ("pause after check, before write").
  const store = new LeaseStore();
  const resource = new FencedResource();
  burnTokens(store, KEY, 32);
  const c1 = new LeaseCandidate({ holder: 1n, key: KEY, ttl_ms: 10_000, seed: 1n });
  const c2 = new LeaseCandidate({ holder: 2n, key: KEY, ttl_ms: 10_000, seed: 2n });

  c1.campaign(0);
  assert.deepEqual(drain(c1, store, 0), [{ type: "Elected", token: 33n, deadline_ms: 9_000 }]);
  const check = c1.assertLeadership(900);
  assert.deepEqual(check, { leader: true, token: 33n });
  assert.deepEqual(resource.write(check.token, "C1 before the pause"), { accepted: true, token: 33n });
  // C1 is paused from 1 s: it gets no input until 15 s.

  c2.campaign(1_000);
  assert.deepEqual(drain(c2, store, 1_000), []);
  assert.equal(c2.state, "Campaigning");
  assert.equal(store.holder(KEY, 1_000).holder, 1n, "C1's lease is valid on the store's clock (rule 3)");
  const elected = runUntil(c2, store, 12_000).filter((e) => e.type === "Elected");
  assert.equal(elected.length, 1, show(elected));
  assert.equal(elected[0].token, 34n, "the next grant's token is greater (rule 2)");
  assert.ok(elected[0].at >= 10_000, `C2 elected at ${elected[0].at}, only after C1's lease lapsed at 10 s`);
  const c2Token = c2.assertLeadership(12_000);
  assert.deepEqual(c2Token, { leader: true, token: 34n });
  assert.equal(resource.write(c2Token.token, "C2").accepted, true);

  // C1 resumes at 15 s and writes with the token it checked before the pause.
  const late = resource.write(check.token, "C1 after the pause");
  assert.deepEqual(late, { accepted: false, reason: "stale fencing token", presented: 33n, required: 34n });
  assert.equal(resource.highestToken, 34n);
  assert.equal(resource.value, "C2");
  // Its own check fails too, and it steps down at once.
  assert.deepEqual(c1.assertLeadership(15_000), { leader: false, reason: "DeadlinePassed", deadline_ms: 9_000, now_ms: 15_000 });
  assert.deepEqual(drain(c1, store, 15_000), [{ type: "SteppedDown", token: 33n, reason: "LeaseExpired" }]);
  c1.reportFenced(15_000, late); // about a leadership already over: ignored, no second event
  assert.deepEqual(drain(c1, store, 15_000), []);
  assert.equal(c1.token, undefined);
});

test("s15a_fenced_report_demotes_a_leader_that_still_believes", () => {
  // S15(a): a write with the old token is rejected with reason "stale fencing token"; the
  // candidate told so (reportFenced) steps down with reason "Fenced".
  const store = new LeaseStore();
  const resource = new FencedResource();
  const c1 = new LeaseCandidate({ holder: 1n, seed: 1n });
  c1.campaign(0);
  drain(c1, store, 0);
  resource.establish(c1.token + 1n); // a newer leader's generation (S16)
  const rejection = resource.write(c1.token, "stale");
  assert.equal(rejection.reason, "stale fencing token");
  c1.reportFenced(100, rejection);
  assert.deepEqual(drain(c1, store, 100), [{ type: "SteppedDown", token: 1n, reason: "Fenced" }]);
  assert.equal(c1.state, "Campaigning");
  assert.deepEqual(c1.assertLeadership(100), { leader: false, reason: "NotLeading", state: "Campaigning" });
});

test("s04_renewal_rejected_by_the_store_steps_down_at_once", () => {
  // S04 (kubernetes#23731): the store refuses the renewal (here its clock jumped past the
  // lease's expiry), so the leader steps down immediately, not at its deadline.
  const store = new LeaseStore();
  const c = new LeaseCandidate({ holder: 1n, ttl_ms: 10_000, seed: 3n });
  c.campaign(0);
  drain(c, store, 0);
  const renewAt = c.pollTimeout();
  assert.deepEqual(c.nextTimer, { kind: "Renew", deadline_ms: renewAt });
  c.handleTimeout(renewAt);
  const events = drain(c, store, renewAt, 20_000);
  assert.deepEqual(events, [{ type: "SteppedDown", token: 1n, reason: "RenewalRejected" }]);
  assert.equal(c.state, "Campaigning");
  assert.equal(c.assertLeadership(renewAt).leader, false);
});

test("s15c_store_unreachable_leader_self_demotes_at_its_local_deadline", () => {
  // S15(c) / S06 (consul#18271): block the leader from the store; renewals go unanswered and
  // it steps down at send time of the last confirmed request + ttl - margin, before the store
  // expires the lease on its own clock.
  const store = new LeaseStore();
  const c = new LeaseCandidate({ holder: 1n, ttl_ms: 10_000, safety_margin_ms: 1_000, seed: 4n });
  c.campaign(0);
  drain(c, store, 0);
  assert.equal(c.leaseDeadline, 9_000);
  store.setAvailable(false);
  assert.equal(store.available, false);
  const events = runUntil(c, store, 20_000);
  const down = events.filter((e) => e.type === "SteppedDown");
  assert.deepEqual(down, [{ at: 9_000, type: "SteppedDown", token: 1n, reason: "StoreUnreachable" }]);
  assert.ok(down[0].at < store.lease(KEY).expires_at_ms, "steps down before the store's expiry");
  assert.equal(c.assertLeadership(9_000).leader, false);
});

test("s02_late_grant_is_not_believed", () => {
  // S02 (etcd#9921): the acquire sent at 0 (ttl 5 s) is granted at 6 s and the answer arrives
  // at 12 s: validity counts from the send time, so it is already spent.
  const store = new LeaseStore();
  const c = new LeaseCandidate({ holder: 1n, ttl_ms: 5_000, safety_margin_ms: 500, seed: 5n });
  c.campaign(0);
  const sent = c.pollOutput();
  assert.equal(sent.request.type, "Acquire");
  const granted = store.handle(6_000, sent.request);
  assert.equal(granted.type, "Granted");
  c.handleResponse(12_000, granted);
  const outputs = [];
  for (let out = c.pollOutput(); out; out = c.pollOutput()) outputs.push(out);
  assert.ok(outputs.every((o) => o.type !== "Event"), show(outputs));
  assert.notEqual(c.state, "Leader");
});

test("release_hands_over_and_the_next_grant_has_a_greater_token", () => {
  const store = new LeaseStore();
  const c1 = new LeaseCandidate({ holder: 1n, seed: 6n });
  const c2 = new LeaseCandidate({ holder: 2n, seed: 7n });
  c1.campaign(0);
  drain(c1, store, 0);
  c1.release(10);
  assert.deepEqual(drain(c1, store, 10), [{ type: "SteppedDown", token: 1n, reason: "Released" }]);
  assert.equal(c1.state, "Stopped");
  assert.equal(store.holder(KEY, 10), undefined);
  c2.campaign(20);
  assert.deepEqual(drain(c2, store, 20), [{ type: "Elected", token: 2n, deadline_ms: 9_020 }]);
});

test("store_rules_held_renew_release_and_tokens", () => {
  // design rules 2-3 through the binding: Held while valid, same token on renewal and
  // idempotent re-acquire, Rejected reasons, tokens never reused.
  const store = new LeaseStore();
  const acquire = (id, holder, at, ttl_ms = 1_000) => store.handle(at, { type: "Acquire", id, key: "k", holder, session: holder, ttl_ms });
  assert.deepEqual(acquire(1n, 1n, 0), { type: "Granted", id: 1n, key: "k", token: 1n, ttl_ms: 1_000 });
  assert.deepEqual(acquire(2n, 2n, 250), { type: "Held", id: 2n, key: "k", holder: 1n, remaining_ms: 750 });
  assert.deepEqual(acquire(3n, 1n, 300), { type: "Granted", id: 3n, key: "k", token: 1n, ttl_ms: 1_000 });
  assert.deepEqual(
    store.handle(400, { type: "Renew", id: 4n, key: "k", holder: 1n, session: 1n, token: 1n, ttl_ms: 2_000.5 }),
    { type: "Renewed", id: 4n, key: "k", token: 1n, ttl_ms: 2_000.5 },
  );
  assert.deepEqual(store.lease("k"), { holder: 1n, session: 1n, token: 1n, ttl_ms: 2_000.5, expires_at_ms: 2_400.5, released: false });
  assert.equal(store.handle(500, { type: "Renew", id: 5n, key: "k", holder: 2n, session: 2n, token: 1n, ttl_ms: 1 }).reason, "NotHolder");
  assert.equal(store.handle(500, { type: "Renew", id: 6n, key: "k", holder: 1n, session: 1n, token: 9n, ttl_ms: 1 }).reason, "TokenMismatch");
  assert.deepEqual(store.handle(600, { type: "Release", id: 7n, key: "k", holder: 1n, session: 1n, token: 1n }), { type: "Released", id: 7n, key: "k" });
  assert.equal(store.handle(700, { type: "Renew", id: 8n, key: "k", holder: 1n, session: 1n, token: 1n, ttl_ms: 1 }).reason, "Expired");
  assert.equal(acquire(9n, 1n, 800).token, 2n, "a new grant after release has a new token");
  assert.equal(store.lastToken("k"), 2n);
  assert.equal(store.lastToken("other"), undefined);
  assert.deepEqual(store.keys(), ["k"]);
  assert.equal(store.now, 800);
  store.setAvailable(false);
  assert.equal(acquire(10n, 3n, 5_000), undefined, "an outage answers nothing");
  assert.equal(store.lastToken("k"), 2n, "and changes nothing");
  store.setAvailable(true);
  assert.equal(acquire(11n, 3n, 5_000).token, 3n);
});

test("time_going_backwards_is_clamped_s08", () => {
  // S08 setup 1: a clock input going back by 1 h is treated as the latest reading.
  const store = new LeaseStore();
  const c = new LeaseCandidate({ holder: 1n, seed: 8n });
  c.campaign(3_600_000);
  drain(c, store, 3_600_000);
  c.handleTimeout(0);
  assert.equal(c.now, 3_600_000);
  assert.equal(c.state, "Leader");
  assert.equal(c.leaseDeadline, 3_609_000);
});

test("config_round_trips_and_a_missing_seed_is_drawn_fresh_and_reported", () => {
  const a = new LeaseCandidate({ holder: 3n, key: "shard-7", ttl_ms: 3_000, safety_margin_ms: 300, renew_interval_ms: 900.5, fencing: false, seed: 2n ** 64n - 1n });
  assert.deepEqual(a.config, {
    holder: 3n, key: "shard-7", ttl_ms: 3_000, safety_margin_ms: 300, renew_interval_ms: 900.5,
    max_round_trip_ms: 1_000, max_drift_ppm: 10_000, retry_interval_ms: 1_000, retry_jitter_ms: 500,
    request_timeout_ms: 1_000, fencing: false, seed: 2n ** 64n - 1n,
  });
  assert.equal(a.fencesWrites, false);
  assert.deepEqual(new LeaseCandidate(a.config).config, a.config);
  const seeds = new Set([new LeaseCandidate().config.seed, new LeaseCandidate({}).config.seed, new LeaseCandidate({ holder: 2n }).config.seed]);
  assert.equal(seeds.size, 3, "fresh seeds from getrandom differ");
  const json = JSON.parse(JSON.stringify(new LeaseCandidate({ seed: 12345678901234567890n })));
  assert.equal(json.config.seed, "12345678901234567890");
  assert.equal(json.state, "Follower");
});

test("same_seed_same_retry_schedule", () => {
  // docs/design.md: randomness only from the seeded PRNG, so the jittered retries replay exactly.
  const schedule = (seed) => {
    const store = new LeaseStore();
    store.handle(0, { type: "Acquire", id: 1n, key: KEY, holder: 9n, session: 9n, ttl_ms: 60_000 });
    const c = new LeaseCandidate({ holder: 1n, seed });
    c.campaign(0);
    drain(c, store, 0);
    const times = [];
    for (let i = 0; i < 5; i++) {
      const t = c.pollTimeout();
      times.push(t);
      c.handleTimeout(t);
      drain(c, store, t);
    }
    return times;
  };
  assert.deepEqual(schedule(42n), schedule(42n));
  assert.notDeepEqual(schedule(42n), schedule(43n));
});
