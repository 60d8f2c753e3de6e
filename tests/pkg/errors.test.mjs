// Boundary guards: u64 tokens are bigints, checked (docs/design.md "Time and numbers"; docs/conventions.md
// items 12 and 14). Misuse throws a real TypeError/RangeError with a stable `code`, the
// message names the value, and the instance stays usable.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FencedResource } from "tenure";

const methods = {
  write: (r, token) => r.write(token, "x"),
  establish: (r, token) => r.establish(token),
  check: (r, token) => r.check(token),
};

const wrongTypes = [
  [5, /got number 5/],
  ["5", /got string "5"/],
  [5.5, /got number 5.5/],
  [undefined, /got undefined/],
  [null, /got null/],
  [{}, /got object/],
  [Symbol("t"), /got symbol/],
];

const outOfRange = [
  [-1n, /got -1n/],
  [2n ** 64n, /got 18446744073709551616n/],
  [2n ** 64n + 5n, /got 18446744073709551621n/],
  [-(2n ** 64n) + 1n, /got -18446744073709551615n/],
];

for (const [name, call] of Object.entries(methods)) {
  test(`${name}_rejects_non_bigint_tokens_with_type_error_code`, () => {
    const r = new FencedResource();
    r.write(3n, "before");
    for (const [token, message] of wrongTypes) {
      assert.throws(
        () => call(r, token),
        (err) => err instanceof TypeError && err.code === "ERR_TOKEN_TYPE" && /token must be a bigint/.test(err.message) && message.test(err.message),
      );
    }
    assert.equal(r.highestToken, 3n);
    assert.equal(r.value, "before");
  });

  test(`${name}_rejects_negative_and_2_pow_64_tokens_with_range_error_code`, () => {
    // wasm-bindgen alone would wrap 2n ** 64n to 0n and -1n to 2n ** 64n - 1n.
    const r = new FencedResource();
    r.write(3n, "before");
    for (const [token, message] of outOfRange) {
      assert.throws(
        () => call(r, token),
        (err) => err instanceof RangeError && err.code === "ERR_TOKEN_RANGE" && message.test(err.message),
      );
    }
    assert.equal(r.highestToken, 3n);
    assert.equal(r.value, "before");
  });
}

test("instance_stays_usable_after_every_kind_of_error", () => {
  const r = new FencedResource();
  assert.throws(() => r.write(1, "x"), TypeError);
  assert.throws(() => r.establish(-5n), RangeError);
  assert.deepEqual(r.write(1n, "ok"), { accepted: true, token: 1n });
  assert.deepEqual(r.establish(2n), { accepted: true, token: 2n });
  assert.equal(r.write(1n, "late").accepted, false);
  assert.equal(r.value, "ok");
});

test("errors_are_genuine_error_objects_with_stack", () => {
  try {
    new FencedResource().write(2n ** 64n, 1);
    assert.fail("no throw");
  } catch (err) {
    assert.ok(err instanceof Error);
    assert.equal(err.name, "RangeError");
    assert.equal(typeof err.stack, "string");
    assert.equal(Object.prototype.toString.call(err), "[object Error]");
  }
});
