// The package README's JavaScript examples run as written against the built package, so the
// documentation cannot drift from the API.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "../../scripts/lib/run.mjs";

const readme = readFileSync(join(root, "pkg", "README.md"), "utf8");
// The examples on real stores (tenure/redis, /postgres, /etcd) need servers: tests/stores runs them.
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)]
  .map((m) => m[1])
  .filter((code) => /from "tenure(\/sim)?"/.test(code) && !/from "tenure\/(redis|postgres|etcd)"/.test(code));

test("readme_has_runnable_examples", () => {
  assert.ok(blocks.length >= 3, `found ${blocks.length} examples`);
});

for (const [i, code] of blocks.entries()) {
  const title = code.split("\n").find((l) => l.includes("import"))?.trim();
  test(`readme_example_${i + 1}_runs: ${title}`, () => {
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: root, encoding: "utf8" });
    assert.equal(result.status, 0, `${code}\n--- stderr:\n${result.stderr}`);
  });
}

// What the driver examples print is what the README says they print.
// (Without the runner's NODE_TEST_CONTEXT, so a node:test example reports in plain TAP.)
const { NODE_TEST_CONTEXT: _, ...plainEnv } = process.env;
const run = (code) => spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: root, encoding: "utf8", env: plainEnv });
const find = (needle) => blocks.find((code) => code.includes(needle));

test("readme_opens_with_the_five_line_service_example", () => {
  const first = blocks[0];
  assert.match(first, /new LeaderElection/);
  const lines = first.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("import"));
  assert.equal(lines.length, 5, first);
  for (const step of ["campaign()", "withLeadership", "write(token", "SIGTERM"]) assert.ok(first.includes(step), step);
});

test("readme_kit_example_runs_every_case_as_a_passing_subtest", () => {
  const r = run(find("tenure/testing"));
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /# fail 0/);
  assert.match(r.stdout, /ok \d+ - renew_keeps_token_and_extends/);
});

test("readme_partition_and_metrics_examples_print_what_they_claim", () => {
  const shards = run(find("ShardedElection"));
  assert.equal(shards.status, 0, shards.stderr);
  assert.match(shards.stdout, /^12 12$/m);
  assert.match(shards.stdout, /leading shard-0 under token 1/);
  const metrics = run(find("prom-client"));
  assert.equal(metrics.status, 0, metrics.stderr);
  assert.match(metrics.stdout, /^1$/m);
  assert.match(metrics.stdout, /leader_election_is_leader\{key="orders",node="node-a"\} 1/);
});

test("readme_search_example_shrinks_to_what_its_comment_says", () => {
  const code = find("Search.shrink(");
  assert.ok(code, "the search example");
  const claimed = code.match(/small\.shrunk;\s*\/\/ (\{[^}]*\})/)?.[1];
  assert.ok(claimed, "the comment after small.shrunk");
  const result = run(`${code}\nconsole.log(JSON.stringify(small.shrunk));`);
  assert.equal(result.status, 0, result.stderr);
  const shrunk = JSON.parse(result.stdout.trim().split("\n").at(-1));
  for (const [, key, value] of claimed.matchAll(/(\w+): (\d+)/g)) assert.equal(shrunk[key], Number(value), `${key} in ${claimed}`);
});

// The Simulation example once left out `seed`, so each run drew one and its comment could only
// say "e.g." about the roles it printed. It names its seed now, and prints what it says.
test("readme_simulation_example_names_its_seed_and_prints_what_its_comments_say", () => {
  const code = find("new Simulation({");
  assert.ok(code, "the Simulation example");
  assert.match(code, /^\s*seed: \d+,/m, "the example gives its seed");
  const claimed = code.match(/snap\.nodes\.map\(\(n\) => \[n\.id, n\.role, n\.term\]\);\n\/\/ (\[\[.*\]\]):/)?.[1];
  assert.ok(claimed, "the comment after snap.nodes.map");
  const violations = code.match(/sim\.violations\(\);\s*\/\/ (\[\])/)?.[1];
  assert.ok(violations, "the comment after sim.violations()");
  const result = run(`${code}\nconsole.log(JSON.stringify([snap.nodes.map((n) => [n.id, n.role, n.term]), sim.violations()]));`);
  assert.equal(result.status, 0, result.stderr);
  const [roles, found] = JSON.parse(result.stdout.trim().split("\n").at(-1));
  assert.deepEqual(roles, JSON.parse(claimed));
  assert.deepEqual(found, JSON.parse(violations));
});
