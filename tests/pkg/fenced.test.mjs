// FencedResource through the built package, imported by name (convention 11).
// Semantics: design rule 1.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FencedResource } from "tenure";

const MAX = 2n ** 64n - 1n;

test("fresh_resource_has_token_zero_and_no_value", () => {
  const r = new FencedResource();
  assert.equal(r.highestToken, 0n);
  assert.equal(r.value, undefined);
});

test("equal_token_is_accepted_so_a_leader_can_write_again", () => {
  // Rule 1: ">= the highest".
  const r = new FencedResource();
  assert.deepEqual(r.write(5n, "a"), { accepted: true, token: 5n });
  assert.deepEqual(r.write(5n, "b"), { accepted: true, token: 5n });
  assert.equal(r.value, "b");
  assert.equal(r.highestToken, 5n);
});

test("lower_token_is_rejected_with_presented_and_required_and_changes_nothing", () => {
  const r = new FencedResource();
  r.write(34n, { from: "C2" });
  assert.deepEqual(r.write(33n, { from: "C1" }), {
    accepted: false,
    reason: "stale fencing token",
    presented: 33n,
    required: 34n,
  });
  assert.deepEqual(r.value, { from: "C2" });
  assert.equal(r.highestToken, 34n);
});

test("s16_establish_then_stale_write_is_rejected", () => {
  // Scenario S16: the new leader installs 42 before acting; the old leader's 41 is refused.
  const r = new FencedResource();
  r.write(41n, "upgrade by A");
  assert.deepEqual(r.establish(42n), { accepted: true, token: 42n });
  assert.equal(r.write(41n, "late command by A").accepted, false);
  assert.equal(r.value, "upgrade by A");
  assert.deepEqual(r.establish(41n), { accepted: false, reason: "stale fencing token", presented: 41n, required: 42n });
  assert.deepEqual(r.establish(42n), { accepted: true, token: 42n });
});

test("check_reports_without_writing", () => {
  const r = new FencedResource();
  r.establish(7n);
  assert.deepEqual(r.check(6n), { accepted: false, reason: "stale fencing token", presented: 6n, required: 7n });
  assert.deepEqual(r.check(8n), { accepted: true, token: 8n });
  assert.equal(r.highestToken, 7n);
  assert.equal(r.value, undefined);
});

test("u64_max_is_a_valid_token_and_stays_highest", () => {
  const r = new FencedResource();
  assert.deepEqual(r.write(MAX, 1), { accepted: true, token: MAX });
  assert.deepEqual(r.write(MAX, 2), { accepted: true, token: MAX });
  assert.equal(r.write(MAX - 1n, 3).required, MAX);
  assert.equal(r.value, 2);
});

test("any_js_value_is_stored_by_identity", () => {
  const r = new FencedResource();
  const value = { nested: [1, 2n, null], fn: () => 1 };
  r.write(1n, value);
  assert.equal(r.value, value);
  r.write(2n, null);
  assert.equal(r.value, null);
  r.write(3n, undefined);
  assert.equal(r.value, undefined);
});
