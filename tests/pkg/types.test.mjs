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
