// An `error` listener that itself throws, found by a new user's trial: with the store down,
// every retry failed, every failure called the listener, and every throw was printed with its
// whole stack by console.error: a screenful per second, for as long as the store was down.
// Node's EventEmitter would let the throw escape emit(), which here runs on the election's
// timers, so it would be an uncaught exception that ends the process; tenure promises that
// errors never crash the host (design rule 10). So a throwing `error` listener is printed once
// per election (with its stack) and the election goes on; an `elected`/`lost` listener's throw
// is an `error` event (ERR_LISTENER), in ShardedElection as in LeaderElection.
import assert from "node:assert/strict";
import { test } from "node:test";
import { LeaderElection, MemoryStore, ShardedElection } from "tenure";
import { FAST, Link, until, wait } from "./helpers/election.mjs";

/** Runs `fn` with console.error captured; returns what was printed, one entry per call. */
async function capturingErrors(fn) {
  const printed = [];
  const original = console.error;
  console.error = (...args) => printed.push(args);
  try {
    await fn();
  } finally {
    console.error = original;
  }
  return printed;
}

test("a_throwing_error_listener_is_printed_once_and_the_election_goes_on", async () => {
  const store = new MemoryStore();
  const link = new Link(store);
  link.mode = "reject";
  const election = new LeaderElection({ store: link, key: "orders", nodeId: "n", ...FAST });
  let calls = 0;
  election.on("error", () => {
    calls++;
    throw new Error("bug in the error handler");
  });
  const printed = await capturingErrors(async () => {
    election.campaign();
    await until(() => calls >= 5, 3000, "five failures heard");
    link.mode = "up"; // the store comes back: the driver was not broken by the throws
    await until(() => election.isLeader, 3000, "elected once the store answers");
  });
  assert.equal(printed.length, 1, `printed ${printed.length} times`);
  assert.match(String(printed[0][0]), /LeaderElection "orders": an "error" listener threw; the election goes on \(printed once/);
  assert.equal(printed[0][1].message, "bug in the error handler", "the thrown error itself, with its stack");
  await election.close();
});

test("a_thrown_value_that_cannot_be_described_does_not_break_the_driver", async () => {
  const store = new MemoryStore();
  const election = new LeaderElection({ store, key: "k", nodeId: "n", ...FAST });
  const hostile = new Error("x");
  Object.defineProperty(hostile, "message", { get() { throw new Error("no message for you"); } });
  election.on("elected", () => {
    throw hostile;
  });
  election.on("error", () => {});
  assert.equal((await election.campaign()).leader, true);
  await wait(FAST.ttlMs);
  assert.equal(election.isLeader, true, "renewals went on");
  await election.close();
});

test("sharded_election_reports_listener_throws_as_leader_election_does", async () => {
  const store = new MemoryStore();
  const node = new ShardedElection({ store, keys: ["a", "b"], nodeId: "solo", ...FAST });
  const errors = [];
  let errorCalls = 0;
  node.on("error", (err) => {
    errors.push(err);
    errorCalls++;
    throw new Error("bug in the sharded error handler");
  });
  node.on("elected", () => {
    throw new Error("bug in the elected handler");
  });
  const printed = await capturingErrors(async () => {
    node.start();
    await until(() => node.leading.length === 2, 3000, "both keys led");
    await until(() => errorCalls >= 2, 3000, "both elected throws reported");
  });
  const listener = errors.filter((e) => e.code === "ERR_LISTENER");
  assert.ok(listener.length >= 2, `ERR_LISTENER events: ${errors.map((e) => e.code)}`);
  assert.match(listener[0].message, /an? "elected" listener threw: bug in the elected handler/);
  assert.ok(["a", "b"].includes(listener[0].key));
  assert.equal(printed.length, 1, `printed ${printed.length} times`);
  assert.match(String(printed[0][0]), /ShardedElection: an "error" listener threw; the election goes on \(printed once/);
  await node.close();
});
