// The chaos run's detectors can fail: fed a split brain, a stale accepted write, a resumed
// leader whose first check passed or a write missing from the audit, they report it, and the
// shared assertions throw. (The real runs, on real servers, are chaos-*.test.mjs.)
import assert from "node:assert/strict";
import { test } from "node:test";
import { assertChaosSafe } from "./chaos/assert.mjs";
import { analyse } from "./chaos/run.mjs";

const check = (node, t, token) => ({ kind: "check", node, t, ok: token !== undefined, token: token && String(token), reason: token ? undefined : "DeadlinePassed" });
const write = (node, t, token, value, accepted = true) => ({ kind: "write", node, t, token: String(token), value, accepted });
const round = (over) => ({ round: 1, stopped: "c1", oldToken: 1n, newLeader: "c2", newToken: 2n, failoverMs: 900, pausedMs: 1500, resumedFirstCheck: { ok: false }, ...over });

function healthy() {
  const events = [check("c1", 0, 1)];
  const audit = [{ seq: 1, kind: "establish", token: 1n, value: null }];
  for (let i = 1; i <= 12; i++) {
    events.push(check(i <= 6 ? "c1" : "c2", i * 100, i <= 6 ? 1 : 2));
    events.push(write(i <= 6 ? "c1" : "c2", i * 100 + 10, i <= 6 ? 1 : 2, `w${i}`));
    if (i === 7) audit.push({ seq: audit.length + 1, kind: "establish", token: 2n, value: null });
    audit.push({ seq: audit.length + 1, kind: "write", token: i <= 6 ? 1n : 2n, value: `w${i}` });
  }
  return { events, audit, rows: [round()], handoverMs: 20, ttlMs: 1_000 };
}

test("chaos_analysis_passes_a_clean_run", () => {
  const r = analyse(healthy());
  assert.equal(r.overlaps.length, 0);
  assert.equal(r.staleAccepted.length, 0);
  assert.doesNotThrow(() => assertChaosSafe("synthetic", r));
});

test("chaos_analysis_finds_two_processes_passing_checks_at_once", () => {
  const run = healthy();
  run.events.push(check("c1", 950, 1)); // c1 still passing while c2 leads (c2 from 700)
  const r = analyse(run);
  assert.equal(r.overlaps.length, 1);
  assert.throws(() => assertChaosSafe("synthetic", r), /two processes' checks passed at once/);
});

test("chaos_analysis_finds_a_stale_write_accepted", () => {
  const run = healthy();
  run.audit.push({ seq: 99, kind: "write", token: 1n, value: "late" });
  run.events.push(write("c1", 2_000, 1, "late"));
  const r = analyse(run);
  assert.equal(r.staleAccepted.length, 1);
  assert.throws(() => assertChaosSafe("synthetic", r), /stale writes accepted/);
});

test("chaos_analysis_finds_a_resumed_leader_whose_first_check_passed", () => {
  const run = healthy();
  run.rows = [round({ resumedFirstCheck: { ok: true, token: "1" } })];
  assert.throws(() => assertChaosSafe("synthetic", analyse(run)), /a resumed leader's first check passed/);
});

test("chaos_analysis_finds_a_reported_write_missing_from_the_audit", () => {
  const run = healthy();
  run.events.push(write("c2", 1_500, 2, "unaudited"));
  assert.throws(() => assertChaosSafe("synthetic", analyse(run)), /in the audit table/);
});

test("chaos_analysis_refuses_a_new_leader_without_a_greater_token", () => {
  const run = healthy();
  run.rows = [round({ newToken: 1n })];
  assert.throws(() => assertChaosSafe("synthetic", analyse(run)), /the new leader's token/);
});
