// The package README's JavaScript examples run as written against the built package, so the
// documentation cannot drift from the API.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { root } from "../../scripts/lib/run.mjs";

const readme = readFileSync(join(root, "pkg", "README.md"), "utf8");
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).filter((code) => code.includes('from "tenure"'));

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
