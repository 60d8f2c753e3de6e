// Simulation.eventsSince(cursor, kinds): exactly the unfiltered page's events of those kinds,
// in order, with the same cursor and `missed`; bad kinds lists are refused with a code.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Simulation } from "tenure/sim";
import { chaosFaults, scenario } from "./simulation-helpers.mjs";

const KINDS = ["send", "deliver", "drop", "timeout", "node", "split-brain-started", "split-brain-ended", "write", "fault", "violation"];

function run(algorithm, toMs, fields = {}) {
  const sim = new Simulation(scenario(algorithm, { nodes: 5, duration_ms: 30_000, faults: chaosFaults(11, 5, 30_000), ...fields }));
  sim.runUntil(toMs);
  return sim;
}

for (const algorithm of ["raft", "lease-fencing", "bully"]) {
  test(`${algorithm}: each kinds filter returns the filtered subsequence of the unfiltered page`, () => {
    const sim = run(algorithm, 1500);
    const all = sim.eventsSince(0);
    assert.ok(all.events.length > 50, `${all.events.length} events`);
    const seen = new Set(all.events.map((e) => e.event));
    assert.ok(seen.size >= 4, [...seen].join(","));
    const filters = [[], ["node"], ["node", "write", "fault", "violation"], ["send", "drop"], ["fault", "node", "node"], KINDS];
    for (const kinds of filters) {
      for (const cursor of [0, 17, all.cursor - 5, all.cursor]) {
        const want = sim.eventsSince(cursor);
        const got = sim.eventsSince(cursor, kinds);
        assert.deepEqual(got.events, want.events.filter((e) => kinds.includes(e.event)), `${kinds} from ${cursor}`);
        assert.equal(got.cursor, want.cursor);
        assert.equal(got.missed, want.missed);
      }
    }
    assert.deepEqual(sim.eventsSince(3, undefined), sim.eventsSince(3), "undefined kinds: every event");
  });
}

test("a filtered page counts the events that left the bounded log like the unfiltered one", () => {
  const sim = run("raft", 20_000);
  const all = sim.eventsSince(0);
  assert.ok(all.missed > 0, "the run outgrew the 4096-event log");
  const nodes = sim.eventsSince(0, ["node"]);
  assert.equal(nodes.missed, all.missed);
  assert.equal(nodes.cursor, all.cursor);
  assert.deepEqual(nodes.events, all.events.filter((e) => e.event === "node"));
});

test("bad kinds lists are refused with a code and change nothing", () => {
  const sim = run("raft", 500);
  const before = sim.eventsSince(0);
  const cases = [
    ["node", TypeError, "ERR_KINDS_TYPE", /kinds must be an array of event names \(send, deliver, drop, timeout, node, split-brain-started, split-brain-ended, write, fault, violation\), got string "node"/],
    [{ 0: "node", length: 1 }, TypeError, "ERR_KINDS_TYPE", /got object/],
    [[1], TypeError, "ERR_KINDS_TYPE", /got number 1 at \[0\]/],
    [["node", null], TypeError, "ERR_KINDS_TYPE", /got null at \[1\]/],
    [Array(257).fill("node"), TypeError, "ERR_KINDS_TYPE", /got an array of 257 \(at most 256\)$/],
    [["Node"], RangeError, "ERR_KINDS_RANGE", /kinds: "Node" is not an event; the events are send, deliver/],
    [["sned"], RangeError, "ERR_KINDS_RANGE", /"sned"/],
  ];
  for (const [kinds, Class, code, message] of cases) {
    assert.throws(() => sim.eventsSince(0, kinds), (err) => err instanceof Class && err.code === code && message.test(err.message), JSON.stringify(kinds)?.slice(0, 40));
  }
  const trap = new Proxy(["node"], { get(t, k) { if (k === "0") throw new Error("trap"); return t[k]; } });
  assert.throws(() => sim.eventsSince(0, trap), /trap/);
  assert.deepEqual(sim.eventsSince(0), before);
});
