// What the playground's touchable views use: Simulation.message(id) with a message's fields,
// the drop-message fault (recorded, so toJSON() replays the drop), a client's propose to a
// Raft node, Raft logs in the snapshot, and a lease store that starts at a given token.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Simulation } from "tenure/sim";
import { ref, runUntilFound, scenario, soleLeader } from "./simulation-helpers.mjs";

test("message_detail_and_drop_message_replay", () => {
  const sim = new Simulation(scenario("raft", { nodes: 3, duration_ms: 3_000, network: { latency_ms: [20, 40] } }));
  const m = runUntilFound(sim, (s) => s.in_flight.find((x) => x.kind === "Heartbeat" || x.kind === "AppendEntries"));
  const detail = sim.message(m.id);
  assert.deepEqual(Object.keys(detail), ["id", "from", "to", "kind", "value", "send_ms", "arrival_ms", "fields"]);
  assert.equal(detail.id, m.id);
  assert.equal(typeof detail.fields.term, "number");
  assert.equal(typeof detail.fields.prev_log_index, "number");
  assert.deepEqual(sim.message(Number(m.id)), detail, "a number id works too");
  const untouched = sim.clone();
  untouched.runUntil(3_000);
  sim.inject({ type: "drop-message", id: Number(m.id) });
  assert.equal(sim.message(m.id), null);
  const again = (() => { try { sim.inject({ type: "drop-message", id: Number(m.id) }); } catch (e) { return e; } })();
  assert.equal(again?.code, "ERR_FAULT_RANGE");
  assert.match(again.message, /not in flight/);
  assert.ok(sim.snapshot().dropped.some((d) => d.id === m.id && d.reason === "injected"));
  sim.runUntil(3_000);
  assert.notEqual(sim.traceHash(), untouched.traceHash());
  const replay = new Simulation(sim.toJSON());
  replay.runUntil(3_000);
  assert.equal(replay.traceHash(), sim.traceHash());
  for (const bad of [-1, 1.5, "7", null, 2 ** 53]) {
    assert.throws(() => sim.message(bad), (e) => e instanceof TypeError && e.code === "ERR_MESSAGE_ID", String(bad));
  }
});

test("propose_appends_on_the_leader_and_commits_and_logs_show_it", () => {
  const sim = new Simulation(scenario("raft", { nodes: 3, duration_ms: 3_000, config: { propose_interval_ms: 100_000 } }));
  const leader = runUntilFound(sim, soleLeader);
  sim.inject({ type: "propose", node: ref(leader.id), command: 4242 });
  const at = (s, id) => s.nodes.find((n) => n.id === id);
  const entry = at(sim.snapshot(), leader.id).log.find((e) => e.command === 4242);
  assert.ok(entry && Number.isSafeInteger(entry.index) && Number.isSafeInteger(entry.term));
  sim.runUntil(sim.now + 300);
  const snap = sim.snapshot();
  assert.ok(snap.nodes.filter((n) => n.log.some((e) => e.command === 4242)).length >= 2);
  assert.ok(at(snap, leader.id).commit >= entry.index);
  const events = sim.eventsSince(0).events.filter((e) => e.event === "node" && e.what === "proposed");
  assert.equal(events.at(-1).value, entry.index);
  const lease = new Simulation(scenario("lease-fencing"));
  assert.throws(() => lease.inject({ type: "propose", node: 1, command: 1 }), (e) => e.code === "ERR_FAULT_RANGE" && /only to raft/.test(e.message));
});

test("first_token_starts_the_store_at_that_token", () => {
  const sim = new Simulation(scenario("lease-fencing", { config: { first_token: 41 } }));
  const token = runUntilFound(sim, (s) => s.store.token);
  assert.equal(token, 41);
  assert.throws(() => new Simulation(scenario("lease-fencing", { config: { first_token: 0 } })), (e) => e.code === "ERR_SCENARIO_RANGE" && /first_token 0/.test(e.message));
  assert.throws(() => new Simulation(scenario("raft", { config: { first_token: 5 } })), (e) => e.code === "ERR_SCENARIO_RANGE");
});

// A token or holder id past 2 ** 53 - 1 would lose digits in the JS numbers the outputs give,
// so a scenario chooses them up to 2 ** 32: every output of such a run reads back exactly.
test("chosen_tokens_and_holder_ids_stay_whole_js_numbers", () => {
  const top = 2 ** 32;
  const sim = new Simulation(scenario("lease-fencing", { duration_ms: 20_000, config: { first_token: top, holder_id: top } }));
  sim.inject({ type: "crash", node: 1 });
  sim.inject({ type: "crash", node: 2 });
  sim.runUntil(20_000);
  const tokens = sim.eventsSince(0).events.filter((e) => e.event === "write").map((e) => e.token);
  assert.ok(tokens.length >= 1 && tokens.every((t) => Number.isSafeInteger(t) && t >= top), JSON.stringify(tokens));
  assert.equal(sim.metrics().fencing_token, sim.snapshot().store.token);
  assert.equal(new Simulation(sim.toJSON()).toJSON().config.first_token, top);
  for (const [config, words] of [
    [{ first_token: top + 1 }, `first_token ${top + 1} is not from 1 to 2 ** 32`],
    [{ first_token: 2n ** 60n }, `first_token ${2n ** 60n} is not from 1 to 2 ** 32`],
    [{ holder_id: top + 1 }, `holder_id ${top + 1} is not from 0 to 2 ** 32`],
  ]) {
    assert.throws(() => new Simulation(scenario("lease-fencing", { config })), (e) => e.code === "ERR_SCENARIO_RANGE" && e.message.includes(words), words);
  }
  // A whole number past 2 ** 53 - 1 is refused for what it is, in JS values and in JSON text.
  const precision = /config\.first_token: .*got 1152921504606847000, above 2 \*\* 53 - 1, where a JS number no longer holds every whole number exactly/;
  const wide = scenario("lease-fencing", { config: { first_token: 2 ** 60 } });
  assert.throws(() => new Simulation(wide), (e) => e.code === "ERR_SCENARIO_TYPE" && precision.test(e.message));
  const text = JSON.stringify(wide).replace("1152921504606847000", "1152921504606846977");
  assert.throws(() => Simulation.fromJSON(text), (e) => e.code === "ERR_SCENARIO_TYPE" && precision.test(e.message));
});
