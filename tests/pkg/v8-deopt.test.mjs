// Node 20's V8 aborted the process when a second ShardedElection process joined one leading
// hundreds of keys: optimized code that had inlined pollOutput (a call into the wasm module
// returning an object) was deoptimized during that call, which that V8 cannot do
// (pkg/election/election.js, shapeOutputs). The run is in a child process, since the failure
// is the process dying; it crashed 6 of 8 times before the workaround (three runs here).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

const script = fileURLToPath(new URL("./fixtures/sharded-join.mjs", import.meta.url));

test("a_second_process_joining_a_large_sharded_election_does_not_abort_node", () => {
  for (let run = 0; run < 3; run++) {
    const r = spawnSync(process.execPath, [script, "1000"], { encoding: "utf8", timeout: 60_000 });
    assert.equal(r.signal, null, `run ${run}: killed by ${r.signal}\n${r.stderr.slice(-2000)}`);
    assert.equal(r.status, 0, `run ${run}: exit ${r.status}\n${r.stderr.slice(-2000)}`);
    const { a, b } = JSON.parse(r.stdout.trim().split("\n").at(-1));
    assert.equal(a + b, 1000, `run ${run}: every key led (a ${a}, b ${b})`);
    assert.ok(b > 0, `run ${run}: the joining process took keys`);
  }
});
