// Field parsing for the playground's knobs and menus (web/playground/fields.js, plain JS: no
// browser needed): units as people type them, and errors in the field's own words.
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseField } from "../../web/playground/fields.js";

const ttl = { label: "Lease TTL", unit: "ms", min: 500, max: 10000 };
const drift = { label: "Clock-drift bound", unit: "ppm", min: 0, max: 150000 };
const seed = { label: "Seed", unit: "count", min: 0, max: Number.MAX_SAFE_INTEGER, integer: true };

test("values_in_the_units_people_type", () => {
  assert.deepEqual(parseField("2000", ttl), { value: 2000 });
  assert.deepEqual(parseField(" 2 s ", ttl), { value: 2000 });
  assert.deepEqual(parseField("1500ms", ttl), { value: 1500 });
  assert.deepEqual(parseField("0.75 seconds", ttl), { value: 750 });
  assert.deepEqual(parseField("1,000", ttl), { value: 1000 });
  assert.deepEqual(parseField("1%", drift), { value: 10000 });
  assert.deepEqual(parseField("2.5 %", drift), { value: 25000 });
  assert.deepEqual(parseField("10000 ppm", drift), { value: 10000 });
  assert.deepEqual(parseField("0", seed), { value: 0 });
});

test("errors_name_the_field_its_range_and_what_was_typed", () => {
  assert.equal(parseField("", ttl).error, "Lease TTL: enter a value (500–10000 ms).");
  assert.equal(parseField("   ", seed).error, `Seed: enter a value (0–${Number.MAX_SAFE_INTEGER}).`);
  assert.equal(parseField("banana", ttl).error, 'Lease TTL: "banana" is not a number (500–10000 ms).');
  assert.equal(parseField("20 s", ttl).error, "Lease TTL: must be 500–10000 ms (20 s is 20000 ms).");
  assert.equal(parseField("100", ttl).error, "Lease TTL: must be 500–10000 ms (you typed 100).");
  assert.equal(parseField("20%", drift).error, "Clock-drift bound: must be 0–150000 ppm (20% is 200000 ppm).");
  assert.equal(parseField("3 kg", drift).error, 'Clock-drift bound: "kg" is not a unit here; use ppm or % (0–150000 ppm).');
  assert.equal(parseField("5 s", seed).error, `Seed: "s" is not a unit here; use a plain number (0–${Number.MAX_SAFE_INTEGER}).`);
  assert.equal(parseField("1.5", seed).error, `Seed: use a whole number (0–${Number.MAX_SAFE_INTEGER}); you typed 1.5.`);
  assert.equal(parseField("-1", seed).error, `Seed: must be 0–${Number.MAX_SAFE_INTEGER} (you typed -1).`);
  assert.match(parseField("1e400", ttl).error, /is not a number/);
  assert.match(parseField(null, ttl).error, /enter a value/);
});
