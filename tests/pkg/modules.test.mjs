// Three wasm modules: the main entry `tenure` (the state machines and the LeaderElection layer)
// reads only the machines' wasm, `tenure/sim` (the Simulation) only the simulator's,
// `tenure/search` (Search and the failover lab) only its own, and `tenure/testing` only the
// machines'. Each import runs in a fresh Node process that records every .wasm file read,
// so nothing a previous import loaded can hide a read. (The browser entry's fetches are
// checked in Chromium by environments.test.mjs.)
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { root } from "../../scripts/lib/run.mjs";

/** Imports `specifier` in a child process, runs `use` on its exports, returns the .wasm files read. */
function wasmRead(specifier, use) {
  const script = `
    import fs from "node:fs";
    import { syncBuiltinESMExports } from "node:module";
    const read = [];
    const original = fs.readFileSync;
    fs.readFileSync = function (path, ...rest) {
      const name = String(path instanceof URL ? path.pathname : path);
      if (name.endsWith(".wasm")) read.push(name.slice(name.lastIndexOf("/") + 1));
      return original.call(this, path, ...rest);
    };
    syncBuiltinESMExports();
    const m = await import(${JSON.stringify(specifier)});
    (${use})(m);
    console.log(JSON.stringify(read));
  `;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").at(-1));
}

test("importing the main entry reads the machines' wasm only", () => {
  const read = wasmRead("tenure", (m) => {
    if (new m.FencedResource().write(1n, "x").accepted !== true) throw new Error("FencedResource did not work");
    if (m.Simulation !== undefined || m.Search !== undefined) throw new Error("the main entry exports the simulator");
  });
  assert.deepEqual(read, ["tenure_bg.wasm"]);
});

test("tenure/testing (LeaderElection over MemoryStore) reads the machines' wasm only", () => {
  assert.deepEqual(wasmRead("tenure/testing", () => {}), ["tenure_bg.wasm"]);
});

test("importing tenure/sim reads the simulator's wasm only", () => {
  const read = wasmRead("tenure/sim", (m) => {
    const sim = new m.Simulation({ version: 1, algorithm: "raft", nodes: 3, seed: 1, duration_ms: 1_000 });
    sim.runUntil(1_000);
    if (sim.snapshot().nodes.length !== 3) throw new Error("Simulation did not work");
    if (m.FencedResource !== undefined) throw new Error("tenure/sim exports the machines");
    if (m.Search !== undefined || m.failoverMeasure !== undefined) throw new Error("tenure/sim exports the search");
    if (!m.Simulation.promises("raft").includes("election-safety")) throw new Error("Simulation.promises did not work");
  });
  assert.deepEqual(read, ["tenure_sim_bg.wasm"]);
});

test("importing tenure/search reads the search module's wasm only", () => {
  const read = wasmRead("tenure/search", (m) => {
    const search = new m.Search({ algorithm: "raft", property: "split-brain", seed: 1 });
    search.runBatch(1);
    if (search.progress().runs !== 1) throw new Error("Search did not work");
    if (m.failoverMeasure({ algorithm: "raft", election_timeout_ms: [150, 300] }, 1, 2).samples_ms.length === 0) throw new Error("failoverMeasure did not work");
    if (m.Simulation !== undefined || m.FencedResource !== undefined) throw new Error("tenure/search exports another module's classes");
  });
  assert.deepEqual(read, ["tenure_search_bg.wasm"]);
});

test("neither module's glue names the other's wasm", () => {
  const dist = (f) => readFileSync(new URL(`../../pkg/dist/${f}`, import.meta.url), "utf8");
  assert.doesNotMatch(dist("tenure.js"), /tenure_sim/);
  assert.doesNotMatch(dist("tenure_sim.js"), /tenure_bg\.wasm|tenure_search/);
  assert.doesNotMatch(dist("tenure_search.js"), /tenure_bg\.wasm|tenure_sim/);
  for (const entry of ["sim/node.js", "sim/browser.js"]) {
    const text = readFileSync(new URL(`../../pkg/${entry}`, import.meta.url), "utf8");
    assert.doesNotMatch(text, /tenure_search|\.\.\/search\//, `pkg/${entry} does not reach the search module`);
  }
  for (const entry of ["node.js", "browser.js"]) {
    const text = readFileSync(new URL(`../../pkg/${entry}`, import.meta.url), "utf8");
    assert.doesNotMatch(text, /tenure_sim|\.\/sim\//, `pkg/${entry} does not reach the simulator`);
  }
});
