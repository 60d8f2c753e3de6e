// Design rule 8 (S17) through the built package: a lease belongs to (holder, session), so two
// LeaseCandidates that claim one holder id never lead together.
//
// The story (apache/curator CURATOR-696; fabric8io/kubernetes-client#5733): two processes
// started with the same identity were both granted the lease under the same token, both
// renewed, both passed their leadership check at every moment, and the fenced resource took
// every write of both. Here the second session is Held out, hears its own id named, raises
// HolderClash once, and only leads (with a new token) after the first lets go.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FencedResource, LeaseCandidate, LeaseStore } from "tenure";
import { Simulation } from "tenure/sim";
import { show } from "./helpers/cluster.mjs";

/**
 * Runs `candidates` against one store and resource for `until` ms: timers in time order,
 * every request answered at once, and every `writeEvery` ms each candidate that passes
 * assertLeadership writes with its token. Returns per-candidate events and accepted writes.
 */
function contend(candidates, { until, writeEvery = 100, store = new LeaseStore(), resource = new FencedResource(), start = 0 } = {}) {
  const seen = candidates.map(() => ({ events: [], accepted: 0, refused: 0, leadChecks: 0 }));
  const pump = (i, now) => {
    const c = candidates[i];
    for (let out = c.pollOutput(); out !== undefined; out = c.pollOutput()) {
      if (out.type === "Event") seen[i].events.push({ at: now, ...out.event });
      else {
        const response = store.handle(now, out.request);
        if (response !== undefined) c.handleResponse(now, response);
      }
    }
  };
  if (start === 0) candidates.forEach((c, i) => { c.campaign(0); pump(i, 0); });
  for (let now = start; now <= until; now += 1) {
    candidates.forEach((c, i) => {
      const due = c.pollTimeout();
      if (due !== undefined && due <= now) { c.handleTimeout(now); pump(i, now); }
    });
    if (now % writeEvery !== 0) continue;
    const leading = [];
    candidates.forEach((c, i) => {
      const check = c.assertLeadership(now);
      pump(i, now);
      if (!check.leader) return;
      seen[i].leadChecks++;
      leading.push(i);
      const result = resource.write(check.token, `candidate ${i} at ${now}`);
      if (result.accepted) seen[i].accepted++;
      else { seen[i].refused++; c.reportFenced(now, result); pump(i, now); }
    });
    assert.ok(leading.length <= 1, `at ${now} ms candidates ${leading} all pass assertLeadership`);
  }
  return { seen, store, resource };
}

const clashes = (s) => s.events.filter((e) => e.type === "HolderClash");

function sameIdContenders(make) {
  const [a, b] = [make(), make()];
  assert.notEqual(a.session, b.session, "each instance draws its own session");
  assert.equal(a.config.holder, b.config.holder);
  const { seen, store, resource } = contend([a, b], { until: 30_000 });
  // Only the first ever leads; the resource takes writes from one candidate only.
  assert.equal(seen[0].events.filter((e) => e.type === "Elected").length, 1, show(seen[0].events));
  assert.deepEqual(seen[1].events.filter((e) => e.type === "Elected"), [], show(seen[1].events));
  assert.ok(seen[0].accepted >= 290, show(seen[0]));
  assert.equal(seen[1].accepted, 0, show(seen[1]));
  assert.equal(seen[1].leadChecks, 0);
  // The one kept out warned once, naming its own (shared) id, and keeps contending.
  assert.deepEqual(clashes(seen[1]).map(({ type, holder }) => ({ type, holder })), [{ type: "HolderClash", holder: a.config.holder }]);
  assert.deepEqual(clashes(seen[0]), []);
  assert.equal(b.state, "Campaigning");
  assert.equal(store.lease(a.config.key).session, a.session);
  assert.equal(resource.highestToken, 1n, "no second grant, no shared token");

  // The first hands over: the second leads under a new token; the first's token is fenced.
  a.release(30_001);
  for (let out = a.pollOutput(); out !== undefined; out = a.pollOutput()) {
    if (out.type === "Send") store.handle(30_001, out.request);
  }
  const after = contend([a, b], { until: 35_000, store, resource, start: 30_002 });
  const elected = after.seen[1].events.filter((e) => e.type === "Elected");
  assert.equal(elected.length, 1, show(after.seen[1].events));
  assert.equal(elected[0].token, 2n);
  assert.ok(after.seen[1].accepted > 0);
  assert.equal(resource.write(1n, "the first, late").accepted, false);
}

test("rule8_two_candidates_with_holder_7_never_both_lead", () => {
  let seed = 40n;
  sameIdContenders(() => new LeaseCandidate({ holder: 7n, seed: seed++, ttl_ms: 2_000, safety_margin_ms: 300, max_round_trip_ms: 300, retry_interval_ms: 250, retry_jitter_ms: 100 }));
});

test("rule8_two_candidates_with_the_default_holder_never_both_lead", () => {
  // No config at all: holder 1n and a fresh seed each, so two sessions.
  sameIdContenders(() => new LeaseCandidate());
});

test("rule8_a_replayed_config_is_the_same_session", () => {
  const c = new LeaseCandidate({ holder: 7n });
  assert.equal(typeof c.session, "bigint");
  assert.equal(new LeaseCandidate(c.config).session, c.session, "the session comes from the seed");
  assert.equal(c.toJSON().session, String(c.session));
});

test("rule8_store_keeps_other_sessions_out_and_matches_renew_and_release_on_the_session", () => {
  const store = new LeaseStore();
  const req = (type, session, extra) => ({ type, id: 1n, key: "k", holder: 7n, session, ...extra });
  assert.equal(store.handle(0, req("Acquire", 1n, { ttl_ms: 1_000 })).token, 1n);
  assert.deepEqual(store.handle(10, req("Acquire", 2n, { ttl_ms: 1_000 })), { type: "Held", id: 1n, key: "k", holder: 7n, remaining_ms: 990 });
  assert.equal(store.handle(20, req("Renew", 2n, { token: 1n, ttl_ms: 1_000 })).reason, "NotHolder");
  assert.equal(store.handle(20, req("Release", 2n, { token: 1n })).reason, "NotHolder");
  assert.equal(store.handle(30, req("Acquire", 1n, { ttl_ms: 1_000 })).token, 1n, "the owning session re-acquires");
  assert.equal(store.handle(1_030, req("Acquire", 2n, { ttl_ms: 1_000 })).token, 2n, "after expiry: a new token");
});

test("contract_held_may_omit_holder_and_remaining_and_the_candidate_retries", () => {
  // design rule 9: a store may not say who holds the key or for how long.
  for (const held of [{}, { holder: null, remaining_ms: null }, { holder: undefined }]) {
    const c = new LeaseCandidate({ holder: 7n, seed: 5n, retry_jitter_ms: 0 });
    c.campaign(0);
    const out = c.pollOutput();
    assert.equal(out.request.session, c.session);
    c.handleResponse(5, { type: "Held", id: out.request.id, key: out.request.key, ...held });
    assert.equal(c.pollOutput(), undefined, "an unnamed holder is no clash");
    assert.equal(c.state, "Campaigning");
    assert.deepEqual(c.nextTimer, { kind: "Retry", deadline_ms: 1_000 });
    c.handleTimeout(1_000);
    assert.equal(c.pollOutput().request.type, "Acquire");
  }
  // Named: the candidate's own id is a clash even without remaining_ms.
  const c = new LeaseCandidate({ holder: 7n, seed: 5n });
  c.campaign(0);
  const { request } = c.pollOutput();
  c.handleResponse(5, { type: "Held", id: request.id, key: request.key, holder: 7n });
  assert.deepEqual(c.pollOutput(), { type: "Event", event: { type: "HolderClash", holder: 7n } });
});

test("contract_unknown_rejection_and_granted_ttl_are_accepted", () => {
  const c = new LeaseCandidate({ holder: 1n, seed: 6n, ttl_ms: 10_000, safety_margin_ms: 1_000 });
  c.campaign(0);
  const acquire = c.pollOutput().request;
  // The store recorded 11 s (rounded up): believed, so the deadline is 0 + 11000 - 1000.
  c.handleResponse(10, { type: "Granted", id: acquire.id, key: acquire.key, token: 3n, ttl_ms: 11_000 });
  assert.deepEqual(c.pollOutput(), { type: "Event", event: { type: "Elected", token: 3n, deadline_ms: 10_000 } });
  c.handleTimeout(c.pollTimeout());
  const renew = c.pollOutput().request;
  assert.equal(renew.type, "Renew");
  assert.equal(renew.session, c.session);
  assert.equal(renew.token, 3n);
  c.handleResponse(3_400, { type: "Rejected", id: renew.id, key: renew.key, reason: "Unknown" });
  assert.deepEqual(c.pollOutput(), { type: "Event", event: { type: "SteppedDown", token: 3n, reason: "RenewalRejected" } });
  // A grant whose ttl does not exceed the margin is no grant (rule 5).
  const d = new LeaseCandidate({ holder: 1n, seed: 7n, ttl_ms: 10_000, safety_margin_ms: 1_000 });
  d.campaign(0);
  const r = d.pollOutput().request;
  d.handleResponse(1, { type: "Granted", id: r.id, key: r.key, token: 1n, ttl_ms: 1_000 });
  assert.equal(d.pollOutput(), undefined);
  assert.equal(d.state, "Campaigning");
});

test("rule8_in_the_simulation_three_contenders_claiming_holder_7", () => {
  // The scenario knob `holder_id` makes every contender claim one id; the checker's
  // token-per-session invariant (no two sessions ever hold one token) is promised.
  for (const seed of [1, 2, 3]) {
    const sim = new Simulation({ version: 1, algorithm: "lease-fencing", nodes: 3, seed, duration_ms: 20_000, config: { holder_id: 7 } });
    const writers = new Set();
    const clashed = new Set();
    let cursor = 0;
    while (!sim.done) {
      sim.runUntil(Math.min(sim.now + 500, sim.endMs));
      const page = sim.eventsSince(cursor);
      cursor = page.cursor;
      for (const e of page.events) {
        if (e.event === "write" && e.accepted) writers.add(e.from);
        if (e.event === "node" && e.what === "holder-clash") {
          assert.equal(e.value, 7);
          clashed.add(e.proc);
        }
      }
      if (sim.now >= sim.endMs) break;
    }
    assert.deepEqual(sim.violations(), [], `seed ${seed}`);
    assert.equal(writers.size, 1, `seed ${seed}: writes accepted from ${[...writers]}`);
    assert.equal(clashed.size, 2, `seed ${seed}: the two kept out warn`);
    assert.equal(sim.metrics().split_brain_ms, 0, `seed ${seed}`);
  }
});

test("default_seeds_differ_per_node: one seed, different holders, different sessions and retries", () => {
  // The holder is mixed into the seed (docs/design.md, "Seeded randomness"), as RaftNode and
  // BullyNode mix their id: contenders given one seed never draw in lock step.
  const made = [1n, 2n, 3n, 4n].map((holder) => new LeaseCandidate({ holder, seed: 0n }));
  assert.equal(new Set(made.map((c) => c.session)).size, 4, "four sessions");
  assert.equal(new LeaseCandidate({ holder: 3n, seed: 0n }).session, made[2].session, "same (seed, holder), same session");
  // The first retry after a Held answer is jittered differently for holders 1 and 2.
  const retryAt = (holder) => {
    const c = new LeaseCandidate({ holder, seed: 0n, retry_interval_ms: 250, retry_jitter_ms: 500 });
    c.campaign(0);
    const out = c.pollOutput();
    assert.equal(out.type, "Send");
    c.handleResponse(0, { type: "Held", id: out.request.id, key: out.request.key, holder: 99n, remaining_ms: 5_000 });
    return c.pollTimeout();
  };
  assert.notEqual(retryAt(1n), retryAt(2n));
  assert.equal(retryAt(1n), retryAt(1n), "replay is bit-identical");
});
