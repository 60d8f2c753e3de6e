// Regression: a JS exception thrown while an argument is read (a revoked Proxy, a throwing
// `length` or trap) used to unwind through the Rust frame and leave wasm-bindgen's borrow of
// the instance taken: every later call, `free()` included, failed with "recursive use of an
// object". Found by a new-user review; the reads now go through catching imports, the thrown
// value reaches the caller, and the instance keeps working.
import { test } from "node:test";
import assert from "node:assert/strict";
import { FencedResource, LeaseCandidate, RaftNode } from "tenure";
import { Simulation } from "tenure/sim";

function revoked() {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function throwingLength(items) {
  return new Proxy(items, {
    get(target, key) {
      if (key === "length") throw new Error("boom: length");
      return target[key];
    },
  });
}

test("a revoked Proxy as an argument throws and leaves the resource usable", () => {
  const r = new FencedResource();
  assert.throws(() => r.write(revoked(), "x"), TypeError);
  assert.deepEqual(r.write(5n, "ok"), { accepted: true, token: 5n });
  assert.equal(r.highestToken, 5n);
  r.free();
});

test("a throwing array length in a fault throws and leaves the simulation usable", () => {
  const sim = new Simulation({ version: 1, algorithm: "raft", nodes: 3, seed: 1, duration_ms: 1000 });
  assert.throws(() => sim.inject({ type: "isolate", nodes: throwingLength([1]) }));
  assert.throws(() => sim.inject(revoked()));
  sim.runUntil(500);
  assert.equal(sim.now, 500);
  sim.inject({ type: "crash", node: 1 });
  sim.free();
});

test("a throwing entries length in AppendEntries throws and leaves the node usable", () => {
  const node = new RaftNode({ id: 1n, peers: [2n, 3n], seed: 1n });
  const msg = { type: "AppendEntries", term: 1n, prev_log_index: 0n, prev_log_term: 0n, entries: throwingLength([]), leader_commit: 0n };
  assert.throws(() => node.handleMessage(0, 2n, msg), /boom: length/);
  assert.throws(() => node.handleMessage(0, 2n, revoked()));
  node.handleMessage(0, 2n, { ...msg, entries: [] });
  assert.equal(node.term, 1n);
  node.free();
});

test("a revoked Proxy as a fenced report or a response leaves the candidate usable", () => {
  const c = new LeaseCandidate({ holder: 1n, seed: 1n });
  assert.throws(() => c.reportFenced(0, revoked()));
  assert.throws(() => c.handleResponse(0, revoked()));
  c.campaign(0);
  assert.equal(c.pollOutput()?.type, "Send");
  c.free();
});
