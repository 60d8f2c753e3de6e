// The browser entry of the built package (`browser.js`, what bundlers and import maps load)
// before and after `await init()`. Regression: used before init it threw the glue's
// "Cannot read properties of undefined" TypeError with no code and no hint. Now every class,
// constructor and static alike, throws Error ERR_NOT_INITIALIZED saying to call
// `await init()`, and works normally once it has resolved. Node can load this entry too: the
// wasm bytes are passed to init() instead of fetched. (The same check runs in Chromium in
// environments.test.mjs.)
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const entry = new URL("../../node_modules/tenure/browser.js", import.meta.url);
const wasm = new URL("../../node_modules/tenure/dist/tenure_bg.wasm", import.meta.url);

test("every class used before init() throws ERR_NOT_INITIALIZED, then works after it", async () => {
  const tenure = await import(entry);
  const notInitialized = (what) => (err) => {
    assert.equal(err.code, "ERR_NOT_INITIALIZED", `${what}: ${err}`);
    assert.match(err.message, /call `await init\(\)`/, what);
    return true;
  };
  const uses = {
    "new FencedResource()": () => new tenure.FencedResource(),
    "new LeaseStore()": () => new tenure.LeaseStore(),
    "new LeaseCandidate()": () => new tenure.LeaseCandidate(),
    "new RaftNode()": () => new tenure.RaftNode(),
    "new BullyNode()": () => new tenure.BullyNode(),
    "new Simulation()": () => new tenure.Simulation({ version: 1, algorithm: "raft", nodes: 3, seed: 1, duration_ms: 100 }),
    "RaftNode.restart": () => tenure.RaftNode.restart({}, { term: 1n, voted_for: null, log: [] }),
    "BullyNode.restart": () => tenure.BullyNode.restart({}, { epoch: 1n }),
    "Simulation.fromJSON": () => tenure.Simulation.fromJSON("{}"),
    "new Search()": () => new tenure.Search({ algorithm: "bully", property: "split-brain" }),
    "Search.shrink": () => tenure.Search.shrink({}, "split-brain"),
    "Search.promises": () => tenure.Search.promises("raft"),
  };
  for (const [what, use] of Object.entries(uses)) assert.throws(use, notInitialized(what), what);
  // Every wasm class the entry exports is covered.
  const classes = Object.entries(tenure).filter(([, v]) => typeof v === "function" && typeof v.prototype?.free === "function").map(([k]) => k).sort();
  assert.deepEqual(classes, ["BullyNode", "FencedResource", "LeaseCandidate", "LeaseStore", "RaftNode", "Search", "Simulation"]);
  for (const name of classes) assert.throws(() => new tenure[name](), notInitialized(name));

  await tenure.init(readFileSync(wasm));
  const candidate = new tenure.LeaseCandidate({ seed: 1n });
  assert.ok(candidate instanceof tenure.LeaseCandidate);
  candidate.campaign(0);
  assert.equal(candidate.pollOutput().type, "Send");
  const raft = tenure.RaftNode.restart({ id: 1n, peers: [2n] }, { term: 3n, voted_for: null, log: [] });
  assert.ok(raft instanceof tenure.RaftNode);
  assert.equal(raft.term, 3n);
  assert.deepEqual(tenure.Search.promises("bully"), ["liveness"]);
  class Mine extends tenure.FencedResource {}
  assert.equal(new Mine().write(1n, "x").accepted, true, "subclassing still works");
  assert.equal(await tenure.init(), undefined, "init() again resolves, doing nothing");
  candidate.free();
  assert.throws(() => candidate.state, (err) => err.code === "ERR_FREED");
});
