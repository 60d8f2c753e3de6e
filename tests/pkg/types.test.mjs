// The published types are precise: a usage file type-checks with tsc --noEmit (convention 13).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "../../scripts/lib/run.mjs";

test("usage_file_type_checks_against_the_public_declarations", () => {
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", join(root, "tests", "pkg", "types", "tsconfig.json")], { encoding: "utf8" });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

test("the declarations type-check with only a target and strict set, without the disposable lib or Node's types", () => {
  // The classes declare [Symbol.dispose] and LeaderElection [Symbol.asyncDispose]; a project
  // with `target: es2022` and no `lib` of its own failed with 8 x TS2550 in the package's
  // .d.ts until the entries referenced the disposable lib themselves. No stores.ts here: the
  // pg types it imports bring @types/node, which declares the symbols and hides the failure.
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", join(root, "tests", "pkg", "types", "tsconfig.defaults.json")], { encoding: "utf8" });
  assert.equal(result.status, 0, result.stdout + result.stderr);
});

test("a machine config's keys are declared `| null` because null is taken, as the default", async () => {
  // The constructors read a key given as null as not given (the default), as they read one
  // absent or undefined; the declarations said `| null` only of renew_interval_ms, so a typed
  // caller could not write what the runtime takes. Every key of each *ConfigInit now says it,
  // and each key given as null is checked here to be the default.
  const { readFileSync } = await import("node:fs");
  const { BullyNode, LeaseCandidate, RaftNode } = await import("tenure");
  const dts = readFileSync(join(root, "pkg", "dist", "tenure.d.ts"), "utf8");
  const classes = { LeaseConfigInit: LeaseCandidate, RaftConfigInit: RaftNode, BullyConfigInit: BullyNode };
  for (const [name, Machine] of Object.entries(classes)) {
    const body = dts.match(new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`))?.[1];
    assert.ok(body, name);
    const keys = [...body.matchAll(/^\s*(\w+)\?: ([^;]+);$/gm)];
    assert.ok(keys.length >= 7, `${name}: ${keys.length} keys`);
    const defaults = new Machine({ seed: 1n }).config;
    for (const [, key, type] of keys) {
      assert.match(type, /\| null$/, `${name}.${key}: ${type}`);
      // The seed is fixed so that two configs compare equal; null for the seed is fresh.
      const config = key === "seed" ? new Machine({ seed: null }).config : new Machine({ seed: 1n, [key]: null }).config;
      if (key === "seed") assert.equal(typeof config.seed, "bigint", name);
      else assert.deepEqual(config, defaults, `${name}.${key}: null`);
    }
  }
});

test("the store adapters' declarations say what they declare: no dispose members, as at runtime", async () => {
  // Their headers said "The classes declare [Symbol.dispose] / [Symbol.asyncDispose]"; none
  // did, in the declarations or at runtime.
  const { readFileSync } = await import("node:fs");
  const entries = { redis: ["RedisStore", "RedisFencedResource"], postgres: ["PostgresStore", "PostgresFencedTable"], etcd: ["EtcdStore"] };
  for (const [entry, classes] of Object.entries(entries)) {
    const dts = readFileSync(join(root, "pkg", `${entry}.d.ts`), "utf8");
    assert.doesNotMatch(dts, /^\s*\[Symbol\.(async)?[dD]ispose\]\(/m, `${entry}.d.ts declares a dispose member`);
    assert.doesNotMatch(dts, /classes declare \[Symbol/, `${entry}.d.ts says its classes declare dispose members`);
    assert.match(dts, /These classes declare no \[Symbol\.dispose\] \/ \[Symbol\.asyncDispose\]/, entry);
    const mod = await import(`tenure/${entry}`);
    for (const name of classes) {
      assert.equal(mod[name].prototype[Symbol.dispose], undefined, name);
      assert.equal(mod[name].prototype[Symbol.asyncDispose], undefined, name);
    }
  }
});
