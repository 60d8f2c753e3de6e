// The JS boundary never traps (docs/design.md, the sans-IO contract: no input may panic, trap
// or grow memory without bound). Regression: every list-taking entry point given a sparse
// array of length 2^32 - 1 or 10^7 elements ended in `RuntimeError: unreachable` (the module
// tried to reserve the whole list); afterwards the instance answered "recursive use of an
// object detected", and after ~10^7 elements every class trapped. Now each list is measured
// first and refused with RangeError ERR_TOO_LARGE naming the field and the limit; a revoked
// Proxy is ERR_REVOKED_PROXY; non-plain objects are ERR_OBJECT_TYPE. After every refused call
// the same instance and every other class are checked to still work.
import assert from "node:assert/strict";
import { test } from "node:test";
import { BullyNode, FencedResource, LeaseCandidate, LeaseStore, RaftNode } from "tenure";
import { Simulation } from "tenure/sim";

const HUGE = 2 ** 32 - 1;
const TEN_MILLION = new Array(1e7).fill(2n);

function revokedArray() {
  const { proxy, revoke } = Proxy.revocable([], {});
  revoke();
  return proxy;
}
function revokedObject() {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}
/** A Proxy over an empty array that reports `length` as `n` (and nothing else). */
const lyingLength = (n) => new Proxy([], { get: (t, k) => (k === "length" ? n : t[k]) });

/** [label, value, expected code] of every hostile list. */
const HOSTILE_LISTS = () => [
  ["a sparse array of length 2^32 - 1", new Array(HUGE), "ERR_TOO_LARGE"],
  ["a Proxy reporting length 2^32 - 1", lyingLength(HUGE), "ERR_TOO_LARGE"],
  ["a Proxy reporting length 1e15", lyingLength(1e15), "ERR_TOO_LARGE"],
  ["a 10^7-element array", TEN_MILLION, "ERR_TOO_LARGE"],
  ["a revoked Proxy", revokedArray(), "ERR_REVOKED_PROXY"],
];

// ----- every class still works -----

function everyClassWorks() {
  const resource = new FencedResource();
  assert.equal(resource.write(3n, "x").accepted, true);
  const store = new LeaseStore();
  const candidate = new LeaseCandidate({ seed: 1n });
  candidate.campaign(0);
  for (let out = candidate.pollOutput(); out; out = candidate.pollOutput()) {
    if (out.type === "Send") {
      const response = store.handle(0, out.request);
      if (response) candidate.handleResponse(0, response);
    }
  }
  assert.equal(candidate.state, "Leader");
  const raft = new RaftNode({ id: 1n, peers: [2n, 3n], seed: 1n });
  raft.campaign(0);
  assert.notEqual(raft.role, "Follower");
  const bully = new BullyNode({ id: 1n, peers: [2n], seed: 1n });
  bully.startElection(0);
  assert.ok(bully.pollOutput());
  const sim = new Simulation({ version: 1, algorithm: "raft", nodes: 3, seed: 1, duration_ms: 2_000 });
  sim.runUntil(2_000);
  assert.ok(sim.metrics().elections_total >= 1);
  for (const o of [resource, store, candidate, raft, bully, sim]) o.free();
}

// ----- the list-taking entry points -----

const scenario = (extra = {}) => ({ version: 1, algorithm: "raft", nodes: 3, seed: 1, duration_ms: 1_000, ...extra });
const append = (entries) => ({ type: "AppendEntries", term: 1n, prev_log_index: 0n, prev_log_term: 0n, entries, leader_commit: 0n });

/**
 * [label, field named in the error, limit, make() -> instance or null, call(instance, list),
 * works(instance)] for every list-taking entry point.
 */
const LIST_ENTRY_POINTS = [
  ["new RaftNode peers", "config.peers", 1024, null, (_, v) => new RaftNode({ peers: v })],
  ["new BullyNode peers", "config.peers", 1024, null, (_, v) => new BullyNode({ peers: v })],
  ["RaftNode.restart log", "persisted.log", 1_000_000, null, (_, v) => RaftNode.restart({ id: 1n, peers: [2n] }, { term: 1n, voted_for: null, log: v })],
  [
    "RaftNode.handleMessage AppendEntries entries", "msg.entries", 65_536,
    () => new RaftNode({ id: 1n, peers: [2n, 3n], seed: 1n }),
    (n, v) => n.handleMessage(0, 2n, append(v)),
    (n) => { n.handleMessage(0, 2n, append([{ type: "Command", term: 1n, command: 7n }])); assert.equal(n.lastLogIndex, 1n); },
  ],
  ["new Simulation faults", "scenario.faults", 250_000, null, (_, v) => new Simulation(scenario({ faults: v }))],
  ["new Simulation partition groups", "scenario.faults[0].fault.groups", 256, null, (_, v) => new Simulation(scenario({ faults: [{ at_ms: 1, fault: { type: "partition", groups: v } }] }))],
  ["new Simulation partition group", "scenario.faults[0].fault.groups[0]", 256, null, (_, v) => new Simulation(scenario({ faults: [{ at_ms: 1, fault: { type: "partition", groups: [v] } }] }))],
  ["new Simulation isolate nodes", "scenario.faults[0].fault.nodes", 256, null, (_, v) => new Simulation(scenario({ faults: [{ at_ms: 1, fault: { type: "isolate", nodes: v } }] }))],
  ["new Simulation latency_ms", "scenario.network.latency_ms", 2, null, (_, v) => new Simulation(scenario({ network: { latency_ms: v } }))],
  ["Simulation.fromJSON object faults", "scenario.faults", 250_000, null, (_, v) => Simulation.fromJSON(scenario({ faults: v }))],
  ...[
    ["isolate", "nodes", { nodes: [1] }],
    ["partition", "groups", { groups: [[1], [2, 3]] }],
    ["partition-one-way", "from", { from: [1], to: [2] }],
    ["link-loss", "to", { from: [1], to: [2], probability: 0.5 }],
    ["link-duplicate", "from", { from: [1], to: [2], probability: 0.5 }],
  ].map(([type, key, valid]) => [
    `Simulation.inject ${type} ${key}`, `fault.${key}`, 256,
    () => new Simulation(scenario()),
    (s, v) => s.inject({ type, ...valid, [key]: v }),
    (s) => { s.inject({ type, ...valid }); s.runUntil(s.now + 100); s.inject({ type: "heal" }); },
  ]),
];

for (const [label, field, limit, make, call, works] of LIST_ENTRY_POINTS) {
  test(`${label}: hostile lists are refused with a code, and everything keeps working`, () => {
    const instance = make?.();
    for (const [what, value, code] of HOSTILE_LISTS()) {
      assert.throws(
        () => call(instance, value),
        (err) => {
          assert.equal(err.code, code, `${label}, ${what}: ${err}`);
          if (code === "ERR_TOO_LARGE") {
            assert.ok(err instanceof RangeError, `${label}, ${what}: ${err}`);
            assert.match(err.message, new RegExp(`^${field.replace(/[[\].]/g, "\\$&")} has \\d+ elements; at most ${limit} are accepted$`), label);
          } else {
            assert.ok(err instanceof TypeError, `${label}, ${what}: ${err}`);
            assert.match(err.message, new RegExp(`${field.replace(/[[\].]/g, "\\$&")} is a revoked Proxy`), label);
          }
          return true;
        },
        `${label}, ${what}`,
      );
      if (instance) works(instance);
      everyClassWorks();
    }
    // One over the limit is refused; at the limit the list is read and judged on its
    // contents (here zeros, which no field accepts but latency_ms), never on its size.
    assert.throws(() => call(instance, new Array(limit + 1).fill(0)), (err) => err.code === "ERR_TOO_LARGE");
    try {
      call(instance, new Array(limit).fill(0));
    } catch (err) {
      assert.ok(typeof err.code === "string" && err.code !== "ERR_TOO_LARGE", `${label} at the limit: ${err}`);
    }
    if (instance) works(instance);
    instance?.free();
  });
}

test("fromJSON text longer than 8 MiB is refused before it is copied", () => {
  const text = " ".repeat(8 * 1024 * 1024 + 1);
  assert.throws(() => Simulation.fromJSON(text), (err) => err instanceof RangeError && err.code === "ERR_TOO_LARGE" && /json has 8388609 characters; at most 8388608/.test(err.message));
  everyClassWorks();
  // Just under the limit is parsed (and refused for what it says, not for its size).
  const padded = JSON.stringify(scenario()) + " ".repeat(8 * 1024 * 1024 - 200);
  assert.equal(new Simulation(scenario()).endMs, Simulation.fromJSON(padded).endMs);
});

test("long strings are refused by length before they are copied", () => {
  const long = "k".repeat(65_537);
  const store = new LeaseStore();
  assert.throws(() => store.holder(long), (err) => err instanceof RangeError && err.code === "ERR_TOO_LARGE" && /^key has 65537 characters; at most 65536/.test(err.message));
  assert.throws(() => new LeaseCandidate({ key: long }), (err) => err.code === "ERR_TOO_LARGE" && /config.key/.test(err.message));
  assert.throws(() => new Simulation(scenario({ algorithm: long })), (err) => err.code === "ERR_TOO_LARGE" && /scenario.algorithm/.test(err.message));
  assert.equal(store.handle(0, { type: "Acquire", id: 1n, key: "k".repeat(65_536), holder: 1n, session: 1n, ttl_ms: 1 }).type, "Granted");
  everyClassWorks();
});

test("scenario objects with too many keys are refused", () => {
  const config = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${i}`, i]));
  assert.throws(() => new Simulation(scenario({ config })), (err) => err.code === "ERR_TOO_LARGE" && /scenario.config has 1000 keys; at most 256/.test(err.message));
  everyClassWorks();
});

// ----- engine exceptions and non-plain objects -----

/** [label, call(value)] of every object-taking entry point (configs, messages, requests). */
const OBJECT_ENTRY_POINTS = [
  ["new LeaseCandidate config", (v) => new LeaseCandidate(v)],
  ["new RaftNode config", (v) => new RaftNode(v)],
  ["new BullyNode config", (v) => new BullyNode(v)],
  ["RaftNode.restart persisted", (v) => RaftNode.restart({}, v)],
  ["BullyNode.restart persisted", (v) => BullyNode.restart({}, v)],
  ["LeaseStore.handle request", (v) => new LeaseStore().handle(0, v)],
  ["LeaseCandidate.handleResponse response", (v) => new LeaseCandidate({ seed: 1n }).handleResponse(0, v)],
  ["LeaseCandidate.reportFenced rejection", (v) => new LeaseCandidate({ seed: 1n }).reportFenced(0, v)],
  ["RaftNode.handleMessage msg", (v) => new RaftNode({ peers: [2n] }).handleMessage(0, 2n, v)],
  ["BullyNode.handleMessage msg", (v) => new BullyNode({ peers: [2n] }).handleMessage(0, 2n, v)],
  ["new Simulation scenario", (v) => new Simulation(v)],
  ["Simulation.fromJSON scenario", (v) => Simulation.fromJSON(v)],
  ["Simulation.inject fault", (v) => new Simulation(scenario()).inject(v)],
];

const NOT_PLAIN = () => [
  ["a Map", new Map([["peers", [2n]]]), /got a Map \(not a plain object\)/],
  ["a Date", new Date(0), /got a Date/],
  ["new Number(5)", new Number(5), /got a Number/],
  ["Object(5n)", Object(5n), /got a BigInt/],
  ["a class instance", new (class Settings {})(), /got a Settings/],
  ["an object made from another", Object.create({ peers: [2n] }), /got an object that is not a plain object$/],
];

for (const [label, call] of OBJECT_ENTRY_POINTS) {
  test(`${label}: non-plain objects and revoked Proxies are refused with a code`, () => {
    for (const [what, value, message] of NOT_PLAIN()) {
      assert.throws(() => call(value), (err) => err instanceof TypeError && err.code === "ERR_OBJECT_TYPE" && message.test(err.message), `${label}: ${what}`);
    }
    assert.throws(() => call(revokedObject()), (err) => err instanceof TypeError && err.code === "ERR_REVOKED_PROXY" && err.cause instanceof TypeError, `${label}: revoked`);
    everyClassWorks();
  });
}

test("an array where the scenario format has an object is ERR_OBJECT_TYPE, also in JSON text", () => {
  for (const extra of [{ config: [] }, { network: [] }, { faults: [[]] }, { faults: [{ at_ms: 1, fault: [] }] }]) {
    const key = Object.keys(extra)[0];
    assert.throws(() => new Simulation(scenario(extra)), (err) => err.code === "ERR_OBJECT_TYPE" && new RegExp(`scenario.${key}`).test(err.message), JSON.stringify(extra));
    assert.throws(() => Simulation.fromJSON(JSON.stringify(scenario(extra))), (err) => err.code === "ERR_OBJECT_TYPE", JSON.stringify(extra));
  }
  assert.throws(() => new Simulation(scenario({ config: new Map() })), (err) => err.code === "ERR_OBJECT_TYPE");
  // A plain object without a prototype is fine.
  const config = Object.assign(Object.create(null), { heartbeat_interval_ms: 50 });
  assert.equal(new Simulation(scenario({ config })).endMs, 1_000);
  assert.equal(new RaftNode(Object.assign(Object.create(null), { peers: [2n] })).role, "Follower");
});

test("duplicate keys in scenario JSON text are refused, naming the key and where", () => {
  const cases = [
    ['{"version":1,"algorithm":"raft","nodes":3,"nodes":5,"seed":1,"duration_ms":1000}', /^scenario has the key "nodes" twice/],
    ['{"version":1,"algorithm":"raft","nodes":3,"seed":1,"duration_ms":1000,"config":{"heartbeat_interval_ms":50,"heartbeat_interval_ms":60}}', /^scenario.config has the key "heartbeat_interval_ms" twice/],
    ['{"version":1,"algorithm":"raft","nodes":3,"seed":1,"duration_ms":1000,"faults":[{"at_ms":1,"at_ms":2,"fault":{"type":"heal"}}]}', /^scenario.faults\[0\] has the key "at_ms" twice/],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => Simulation.fromJSON(text), (err) => err instanceof TypeError && err.code === "ERR_DUPLICATE_KEY" && message.test(err.message), text);
  }
  assert.equal(Simulation.fromJSON(cases[0][0].replace(',"nodes":5', "")).endMs, 1_000);
});

test("a getter or trap that throws reaches the caller as thrown, coded ERR_INPUT_THREW", () => {
  const mine = new Error("mine");
  assert.throws(() => new LeaseCandidate({ get ttl_ms() { throw mine; } }), (err) => err === mine && err.code === "ERR_INPUT_THREW");
  const coded = Object.assign(new Error("coded"), { code: "MY_CODE" });
  assert.throws(() => new RaftNode({ get peers() { throw coded; } }), (err) => err === coded && err.code === "MY_CODE");
  // An engine TypeError raised inside a trap (a Proxy invariant broken) is coded too.
  const target = {};
  Object.defineProperty(target, "peers", { value: [2n], configurable: false, enumerable: true });
  const lying = new Proxy(target, { get: () => [3n] });
  assert.throws(() => new RaftNode(lying), (err) => err instanceof TypeError && err.code === "ERR_INPUT_THREW");
  // Hostile throws: a frozen Error (cannot take a code), a non-Error, a Proxy whose traps throw.
  const frozen = Object.freeze(new Error("frozen"));
  assert.throws(() => new LeaseCandidate({ get key() { throw frozen; } }), (err) => err === frozen && err.code === undefined);
  assert.throws(() => new LeaseCandidate({ get key() { throw 42; } }), (err) => err === 42);
  const trap = () => { throw new Error("trap"); };
  const nasty = new Proxy(new Error("nasty"), { getPrototypeOf: trap, getOwnPropertyDescriptor: trap, defineProperty: trap, get: trap });
  assert.throws(() => new RaftNode({ get peers() { throw nasty; } }), (err) => err === nasty);
  const raft = new RaftNode({ id: 1n, peers: [2n], seed: 1n });
  assert.throws(() => raft.handleMessage(0, 2n, { get type() { throw nasty; } }), (err) => err === nasty);
  raft.campaign(0);
  assert.notEqual(raft.role, "Follower", "the instance is still usable");
  const sim = new Simulation(scenario());
  assert.throws(() => sim.inject({ type: "isolate", get nodes() { throw mine; } }), (err) => err === mine);
  sim.runUntil(10);
  everyClassWorks();
});

// ----- freed objects -----

test("every class answers a call after free() with ERR_FREED; a second free() is harmless", () => {
  const make = {
    FencedResource: () => [new FencedResource(), (o) => o.write(1n, "x"), (o) => o.highestToken],
    LeaseStore: () => [new LeaseStore(), (o) => o.handle(0, { type: "Acquire", id: 1n, key: "k", holder: 1n, session: 1n, ttl_ms: 1 }), (o) => o.available],
    LeaseCandidate: () => [new LeaseCandidate(), (o) => o.campaign(0), (o) => o.state],
    RaftNode: () => [new RaftNode(), (o) => o.handleTimeout(0), (o) => o.role],
    BullyNode: () => [new BullyNode(), (o) => o.handleTimeout(0), (o) => o.role],
    Simulation: () => [new Simulation(scenario()), (o) => o.step(), (o) => o.now],
  };
  for (const [name, build] of Object.entries(make)) {
    const [o, method, getter] = build();
    o.free();
    o.free();
    for (const call of [method, getter]) {
      assert.throws(() => call(o), (err) => err.code === "ERR_FREED" && err.message.includes(`this ${name} was freed`), name);
    }
    everyClassWorks();
  }
});

// ----- calls from inside a call, and calls on something that is not an instance -----

test("a call or free() from a getter of the same object's argument is refused with ERR_REENTRANT, and the object keeps working", () => {
  const store = new LeaseStore();
  const request = { type: "Acquire", id: 1n, key: "k", holder: 1n, session: 1n, ttl_ms: 1_000 };
  for (const inner of [() => store.holder("k", 0), () => store.free()]) {
    const hostile = new Proxy(request, { get: (t, k, r) => (k === "type" && inner(), Reflect.get(t, k, r)) });
    assert.throws(() => store.handle(0, hostile), (err) => err.code === "ERR_REENTRANT" && /LeaseStore\.(holder|free): called while a call on this LeaseStore is still running/.test(err.message));
  }
  // Nothing was freed or granted by the refused calls: the same request is granted now.
  assert.equal(store.handle(0, request).type, "Granted");
  assert.equal(store.holder("k", 1).holder, 1n);
  everyClassWorks();
});

test("a method called with a this that is not an instance throws ERR_THIS_TYPE, not wasm-bindgen's null pointer", () => {
  for (const [cls, member, args] of [[FencedResource, "write", [1n, "x"]], [RaftNode, "handleTimeout", [0]], [Simulation, "step", []]]) {
    for (const self of [{}, Object.create(cls.prototype), undefined]) {
      assert.throws(() => cls.prototype[member].apply(self, args), (err) => err instanceof TypeError && err.code === "ERR_THIS_TYPE" && err.message.startsWith(`${cls.name}.${member}: \`this\` is not a ${cls.name}`));
    }
  }
  everyClassWorks();
});

test("a method or free() applied to an instance of another class throws ERR_THIS_TYPE and changes neither object", () => {
  // A LeaseStore method applied to a RaftNode used to run on the RaftNode's memory as if it
  // were a store's (its id read back as 0n afterwards), and a RaftNode method on a
  // FencedResource trapped the module ("memory access out of bounds").
  const raft = new RaftNode({ id: 1n, peers: [2n], seed: 1n });
  const store = new LeaseStore();
  const resource = new FencedResource();
  const acquire = { type: "Acquire", id: 1n, key: "k", holder: 1n, session: 1n, ttl_ms: 1000 };
  const isThisType = (cls, member) => (err) => err instanceof TypeError && err.code === "ERR_THIS_TYPE" && err.message.startsWith(`${cls.name}.${member}: \`this\` is not a ${cls.name}`);
  assert.throws(() => LeaseStore.prototype.handle.call(raft, 0, acquire), isThisType(LeaseStore, "handle"));
  assert.throws(() => RaftNode.prototype.campaign.call(resource, 0), isThisType(RaftNode, "campaign"));
  assert.throws(() => FencedResource.prototype.write.call(store, 5n, "x"), isThisType(FencedResource, "write"));
  assert.throws(() => FencedResource.prototype.free.call(store), isThisType(FencedResource, "free"));
  assert.throws(() => FencedResource.prototype.write.call({ __wbg_ptr: 8 }, 5n, "x"), isThisType(FencedResource, "write"));
  assert.throws(() => RaftNode.prototype.free.call({}), isThisType(RaftNode, "free"));
  assert.equal(raft.id, 1n);
  assert.deepEqual(raft.config.peers, [2n]);
  assert.equal(store.handle(0, acquire).type, "Granted");
  assert.equal(resource.write(1n, "x").accepted, true);
  for (const obj of [raft, store, resource]) obj.free();
  everyClassWorks();
});

test("Symbol.dispose after free() does nothing, as a second free() does", () => {
  for (const make of [() => new FencedResource(), () => new LeaseStore(), () => new RaftNode({ seed: 1n })]) {
    const obj = make();
    obj.free();
    assert.doesNotThrow(() => obj[Symbol.dispose]());
    assert.doesNotThrow(() => obj.free());
  }
});

test("the whole scenario is bounded too: nested lists within their limits cannot multiply", () => {
  // 5000 faults sharing one list of 256 groups: each list is within its limit, the whole
  // would be 2.5 million values to copy.
  const groups = Array.from({ length: 256 }, () => [1]);
  const faults = Array.from({ length: 5_000 }, (_, i) => ({ at_ms: i, fault: { type: "partition", groups } }));
  assert.throws(() => new Simulation(scenario({ faults })), (err) => err instanceof RangeError && err.code === "ERR_TOO_LARGE" && /^scenario has 1000001 values \(or more\); at most 1000000/.test(err.message));
  // 20,000 faults (a ten-hour chaos run's) load from text, as `tenure run` reads them; the
  // faults' own limit (250,000) is above what 8 MiB of text can hold, so text meets the
  // text limit first.
  const heals = (n) => JSON.stringify(scenario({ faults: Array.from({ length: n }, () => ({ at_ms: 1, fault: { type: "heal" } })) }));
  Simulation.fromJSON(heals(20_000)).free();
  assert.throws(() => Simulation.fromJSON(heals(250_001)), (err) => err.code === "ERR_TOO_LARGE" && /^json has \d+ characters; at most 8388608 are accepted/.test(err.message));
  // Text takes the same limits as objects.
  const wide = JSON.stringify(scenario({ faults: [{ at_ms: 1, fault: { type: "isolate", nodes: Array.from({ length: 257 }, () => 1) } }] }));
  assert.throws(() => Simulation.fromJSON(wide), (err) => err.code === "ERR_TOO_LARGE" && /^scenario.faults\[0\].fault.nodes has 257 elements; at most 256/.test(err.message));
  everyClassWorks();
});

test("a leader never sends more entries per AppendEntries than a follower's binding reads", () => {
  assert.throws(() => new RaftNode({ max_entries_per_append: 65_537 }), (err) => err instanceof RangeError && err.code === "ERR_INTEGER_RANGE" && /from 1 to 65536, got 65537/.test(err.message));
  assert.equal(new RaftNode({ max_entries_per_append: 65_536 }).config.max_entries_per_append, 65_536);
});
