// The browser entry of the built package (`browser.js`, what bundlers and import maps load)
// before and after `await init()`. Regression: used before init it threw the glue's
// "Cannot read properties of undefined" TypeError with no code and no hint. Now every class,
// constructor and static alike, throws Error ERR_NOT_INITIALIZED saying to call
// `await init()`, and works normally once it has resolved. Node can load this entry too: the
// wasm bytes are passed to init() instead of fetched. (The same check runs in Chromium in
// environments.test.mjs.) The simulator's entry, `sim/browser.js`, behaves the same with its
// own module, and the two entries load nothing of each other.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const entry = new URL("../../node_modules/tenure/browser.js", import.meta.url);
const wasm = new URL("../../node_modules/tenure/dist/tenure_bg.wasm", import.meta.url);
const simEntry = new URL("../../node_modules/tenure/sim/browser.js", import.meta.url);
const simWasm = new URL("../../node_modules/tenure/dist/tenure_sim_bg.wasm", import.meta.url);
const searchEntry = new URL("../../node_modules/tenure/search/browser.js", import.meta.url);
const searchWasm = new URL("../../node_modules/tenure/dist/tenure_search_bg.wasm", import.meta.url);

const notInitialized = (what, entryName) => (err) => {
  assert.equal(err.code, "ERR_NOT_INITIALIZED", `${what}: ${err}`);
  assert.match(err.message, /call `await init\(\)`/, what);
  assert.ok(err.message.includes(`(exported by "${entryName}")`), `${what} names its entry: ${err.message}`);
  return true;
};

const wasmClasses = (exports) =>
  Object.entries(exports)
    .filter(([, v]) => typeof v === "function" && typeof v.prototype?.free === "function")
    .map(([k]) => k)
    .sort();

test("every class used before init() throws ERR_NOT_INITIALIZED, then works after it", async () => {
  const tenure = await import(entry);
  const uses = {
    "new FencedResource()": () => new tenure.FencedResource(),
    "new LeaseStore()": () => new tenure.LeaseStore(),
    "new LeaseCandidate()": () => new tenure.LeaseCandidate(),
    "new RaftNode()": () => new tenure.RaftNode(),
    "new BullyNode()": () => new tenure.BullyNode(),
    "RaftNode.restart": () => tenure.RaftNode.restart({}, { term: 1n, voted_for: null, log: [] }),
    "BullyNode.restart": () => tenure.BullyNode.restart({}, { epoch: 1n }),
  };
  for (const [what, use] of Object.entries(uses)) assert.throws(use, notInitialized(what, "tenure"), what);
  // Every wasm class the entry exports is covered; the simulator's are not in this entry.
  const classes = wasmClasses(tenure);
  assert.deepEqual(classes, ["BullyNode", "FencedResource", "LeaseCandidate", "LeaseStore", "RaftNode"]);
  for (const name of classes) assert.throws(() => new tenure[name](), notInitialized(name, "tenure"));

  await tenure.init(readFileSync(wasm));
  const candidate = new tenure.LeaseCandidate({ seed: 1n });
  assert.ok(candidate instanceof tenure.LeaseCandidate);
  candidate.campaign(0);
  assert.equal(candidate.pollOutput().type, "Send");
  const raft = tenure.RaftNode.restart({ id: 1n, peers: [2n] }, { term: 3n, voted_for: null, log: [] });
  assert.ok(raft instanceof tenure.RaftNode);
  assert.equal(raft.term, 3n);
  class Mine extends tenure.FencedResource {}
  assert.equal(new Mine().write(1n, "x").accepted, true, "subclassing still works");
  assert.equal(await tenure.init(), undefined, "init() again resolves, doing nothing");
  candidate.free();
  assert.throws(() => candidate.state, (err) => err.code === "ERR_FREED");
});

test("tenure/sim: every class used before its init() throws ERR_NOT_INITIALIZED naming tenure/sim, then works", async () => {
  const sim = await import(simEntry);
  const uses = {
    "new Simulation()": () => new sim.Simulation({ version: 1, algorithm: "raft", nodes: 3, seed: 1, duration_ms: 100 }),
    "Simulation.fromJSON": () => sim.Simulation.fromJSON("{}"),
    "Simulation.promises": () => sim.Simulation.promises("raft"),
  };
  for (const [what, use] of Object.entries(uses)) assert.throws(use, notInitialized(what, "tenure/sim"), what);
  assert.deepEqual(wasmClasses(sim), ["Simulation"]);
  await sim.init(readFileSync(simWasm));
  assert.deepEqual(sim.Simulation.promises("bully"), ["liveness"]);
  const run = new sim.Simulation({ version: 1, algorithm: "raft", nodes: 3, seed: 1, duration_ms: 100 });
  assert.ok(run instanceof sim.Simulation);
  run.free();
});

test("tenure/search: Search used before its init() throws ERR_NOT_INITIALIZED naming tenure/search, then works", async () => {
  const search = await import(searchEntry);
  const uses = {
    "new Search()": () => new search.Search({ algorithm: "bully", property: "split-brain" }),
    "Search.shrink": () => search.Search.shrink({}, "split-brain"),
    "Search.promises": () => search.Search.promises("raft"),
  };
  for (const [what, use] of Object.entries(uses)) assert.throws(use, notInitialized(what, "tenure/search"), what);
  assert.deepEqual(wasmClasses(search), ["Search"]);
  await search.init(readFileSync(searchWasm));
  assert.deepEqual(search.Search.promises("bully"), ["liveness"]);
  assert.match(search.failoverPlot("t", [{ label: "a", samples_ms: [1, 2, 3] }]), /^<svg/);
  // An argument left out is said to be undefined here too (pkg/guard.js, undefinedArgs).
  assert.throws(() => search.failoverMeasure({ algorithm: "raft" }, undefined, 1), {
    code: "ERR_SCENARIO_TYPE",
    message: "seed: expected a number, a bigint or a decimal string, got undefined",
  });
});
