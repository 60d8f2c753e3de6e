// Store failures never crash the host or end leadership early or late (design rules 4, 9,
// 10): a throwing store, a rejecting one, one that never answers and one that answers
// garbage each give `error` events with a code and the offending request and reply; the
// leader steps down at its local deadline, its withLeadership signal aborts then; and once
// the store heals it is elected again. Each scenario runs in a child process under
// --unhandled-rejections=strict.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { LeaderElection, LeadershipExpiredError, MemoryStore } from "tenure";
import { FAST, Link, record, until, wait } from "./helpers/election.mjs";

const SCRIPT = fileURLToPath(new URL("./fixtures/bad-store.mjs", import.meta.url));

function scenario(mode, listener = "listener") {
  const r = spawnSync(process.execPath, ["--unhandled-rejections=strict", SCRIPT, mode, listener], { encoding: "utf8", timeout: 20_000 });
  assert.equal(r.status, 0, `scenario ${mode} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  return { ...JSON.parse(r.stdout.trim().split("\n").pop()), stderr: r.stderr };
}

const EXPECT = {
  throw: "ERR_STORE_THREW",
  reject: "ERR_STORE_REJECTED",
  silent: "ERR_STORE_TIMEOUT",
  "no-answer": "ERR_STORE_NO_ANSWER",
  "reply-null": "ERR_STORE_REPLY",
  "reply-string": "ERR_STORE_REPLY",
  "reply-unknown-type": "ERR_STORE_REPLY",
  "reply-number-token": "ERR_STORE_REPLY",
  "reply-extra-field": "ERR_STORE_REPLY",
  "reply-wrong-type": "ERR_STORE_REPLY",
  "reply-bumped-token": "ERR_STORE_CONTRACT",
  "reply-negative-ttl": "ERR_STORE_REPLY",
  "reply-other-key": "ERR_STORE_REPLY",
  "reply-bad-reason": "ERR_STORE_REPLY",
  "reply-throwing-getter": "ERR_STORE_REPLY",
};

for (const [mode, code] of Object.entries(EXPECT)) {
  test(`store_${mode.replaceAll("-", "_")}_is_an_error_event_and_leadership_ends_at_the_deadline`, () => {
    const r = scenario(mode);
    assert.equal(r.first, true);
    assert.deepEqual(r.errors, [code]);
    assert.deepEqual(r.errorShapes[0], { name: "StoreError", hasRequest: true, key: "k" });
    assert.deepEqual(r.events.slice(0, 2), [["elected", 1], ["lost", "StoreUnreachable"]]);
    assert.equal(r.events[2][0], "elected", "elected again once the store healed");
    assert.equal(r.abortName, "LeadershipExpiredError");
    assert.equal(r.abortReason, "StoreUnreachable");
    // The timer is set for the deadline; any lateness is the scheduler's (a loaded machine).
    assert.ok(r.abortLateMs >= 0 && r.abortLateMs < 100, `signal aborted ${r.abortLateMs} ms after the deadline`);
    assert.equal(r.held, true, "close() released the lease");
    assert.equal(r.stderr, "");
  });
}

test("without_an_error_listener_a_failure_is_warned_once_and_nothing_crashes", () => {
  const r = scenario("throw", "nolistener");
  const warnings = r.stderr.split("\n").filter((l) => l.includes("tenure LeaderElection"));
  assert.equal(warnings.length, 1, r.stderr);
  assert.match(warnings[0], /ERR_STORE_THREW/);
  assert.match(warnings[0], /add an "error" listener/);
  assert.equal(r.events[2][0], "elected");
});

test("with_leadership_signal_aborts_at_the_local_deadline_when_the_store_never_answers", async () => {
  const store = new MemoryStore();
  const link = new Link(store);
  const election = new LeaderElection({ store: link, key: "k", nodeId: "n", ...FAST });
  election.on("error", () => {});
  await election.campaign();
  link.mode = "silent";
  const deadline = election.leaseDeadlineMs;
  // A plain timer for the same instant: on a starved event loop both fire late, so the abort
  // is judged against when the loop could first run anything at the deadline.
  const probe = new Promise((resolve) => setTimeout(() => resolve(performance.now()), Math.max(0, deadline - performance.now())));
  const result = await election.withLeadership(async ({ token, signal }) => {
    assert.equal(token, 1n);
    await new Promise((resolve) => signal.addEventListener("abort", resolve));
    return { at: performance.now(), reason: signal.reason };
  });
  const loopAt = await probe;
  assert.ok(result.at >= deadline - 1 && result.at < Math.max(deadline, loopAt) + 50, `aborted at ${result.at}, deadline ${deadline}, a timer for the deadline ran at ${loopAt}`);
  assert.ok(result.reason instanceof LeadershipExpiredError);
  assert.equal(result.reason.code, "ERR_LEADERSHIP_EXPIRED");
  // StoreUnreachable when a renewal went out unanswered; LeaseExpired when a starved event
  // loop reached the deadline before the renew timer could send one (both are rule 4).
  assert.ok(["StoreUnreachable", "LeaseExpired"].includes(result.reason.reason), result.reason.reason);
  await assert.rejects(election.withLeadership(async () => "never runs"), { name: "LeadershipExpiredError" });
  link.mode = "up";
  await election.close();
});

test("with_leadership_signal_aborts_when_fenced_or_released", async () => {
  const store = new MemoryStore();
  const election = new LeaderElection({ store, key: "k", nodeId: "n", ...FAST });
  await election.campaign();
  const fenced = await election.withLeadership(async ({ token, signal }) => {
    election.reportFenced({ accepted: false, reason: "stale fencing token", presented: token, required: token + 1n });
    return signal.aborted && signal.reason.reason;
  });
  assert.equal(fenced, "Fenced");
  await until(() => election.isLeader, 2000, "re-elected after the fence");
  const released = election.withLeadership(({ signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve(signal.reason.reason))));
  await election.release();
  assert.equal(await released, "Released");
  assert.equal(election.state, "Stopped");
  await election.close();
});

test("assert_leadership_throws_a_coded_error_with_the_deadline", async () => {
  const store = new MemoryStore();
  const link = new Link(store);
  const election = new LeaderElection({ store: link, key: "k", nodeId: "n", ...FAST });
  election.on("error", () => {});
  assert.throws(
    () => election.assertLeadership(),
    (err) => err instanceof LeadershipExpiredError && err.code === "ERR_NOT_LEADER" && err.state === "Follower" && /campaign\(\) was never called/.test(err.message),
  );
  await election.campaign();
  assert.equal(election.assertLeadership(), 1n);
  link.mode = "silent";
  const deadline = election.leaseDeadlineMs;
  // Block the event loop past the deadline: the timer cannot fire, the check itself refuses.
  const until_ = performance.now() + (deadline - performance.now()) + 5;
  while (performance.now() < until_);
  assert.throws(
    () => election.assertLeadership(),
    (err) => err.code === "ERR_LEADERSHIP_EXPIRED" && err.deadlineMs === deadline && err.nowMs >= deadline && /expired/.test(err.message),
  );
  assert.equal(election.isLeader, false);
  link.mode = "up";
  await election.close();
});

test("a_throwing_listener_is_reported_and_the_election_goes_on", async () => {
  const store = new MemoryStore();
  const election = new LeaderElection({ store, key: "k", nodeId: "n", ...FAST });
  const rec = record(election);
  election.on("elected", () => {
    throw new Error("listener bug");
  });
  assert.equal((await election.campaign()).leader, true);
  assert.equal(rec.errors[0].code, "ERR_LISTENER");
  assert.match(rec.errors[0].message, /listener bug/);
  await wait(FAST.ttlMs); // renewals go on
  assert.equal(election.isLeader, true);
  await election.close();
});

test("an_identity_clash_is_reported_and_only_one_session_leads", async () => {
  const store = new MemoryStore();
  const a = new LeaderElection({ store, key: "k", nodeId: "same", ...FAST });
  const b = new LeaderElection({ store, key: "k", nodeId: "same", ...FAST });
  const rec = record(b);
  assert.equal((await a.campaign()).leader, true);
  assert.deepEqual(await b.campaign(), { leader: false, holder: "same" });
  assert.equal(rec.errors[0].code, "ERR_HOLDER_CLASH");
  await wait(FAST.ttlMs);
  assert.equal(a.isLeader, true);
  assert.equal(b.isLeader, false);
  await Promise.all([a.close(), b.close()]);
});

// A fenced resource refuses a token only below the highest it has seen (`required`), so a
// "rejection" with required <= presented is one no resource makes. reportFenced() took it and
// stepped the leader down ("Fenced"), ending a valid leadership for nothing. It is refused
// (RangeError ERR_TOKEN_RANGE, the token family of reportFenced's other input errors, naming
// both fields and values) and the leader keeps leading; a real rejection still fences, and
// one about another token (presented is not this leader's) is still ignored.
test("report_fenced_refuses_an_impossible_rejection_and_keeps_leadership", async () => {
  const store = new MemoryStore();
  const election = new LeaderElection({ store, key: "k", nodeId: "n", ttlMs: 3000 });
  const rec = record(election);
  const { token } = await election.campaign();
  const stale = { accepted: false, reason: "stale fencing token" };
  for (const required of [token, 0n]) {
    assert.throws(() => election.reportFenced({ ...stale, presented: token, required }), {
      name: "RangeError",
      code: "ERR_TOKEN_RANGE",
      message: new RegExp(`rejection\\.required ${required}n is not above rejection\\.presented ${token}n`),
    });
  }
  assert.throws(() => election.reportFenced({ presented: token + 5n, required: token + 5n }), { code: "ERR_TOKEN_RANGE" });
  // The machine's own checks keep their words.
  assert.throws(() => election.reportFenced({ accepted: true, presented: token, required: token }), { code: "ERR_VARIANT" });
  assert.throws(() => election.reportFenced({ presented: 1, required: 0n }), { code: "ERR_TOKEN_TYPE" });
  await wait(20);
  assert.equal(election.isLeader, true, "an impossible rejection leaves leadership as it was");
  assert.equal(election.assertLeadership(), token);
  assert.deepEqual(rec.events.map(([n]) => n), ["elected"]);

  election.reportFenced({ ...stale, presented: token + 7n, required: token + 8n }); // another token's: ignored
  assert.equal(election.isLeader, true);
  election.reportFenced({ ...stale, presented: token, required: token + 1n });
  assert.equal(election.isLeader, false, "a real rejection still fences");
  assert.deepEqual(rec.events.map(([n, p]) => [n, p.reason]), [["elected", undefined], ["lost", "Fenced"]]);
  await election.close();
});

// campaign() resolved `{ leader: false, holder: undefined }` both for a lease held by a holder
// the store did not name and for a store that never answered: the caller could not tell a
// store outage from a busy lease. A failed attempt now carries its StoreError.
test("campaign_tells_a_failed_attempt_from_an_answered_one", async () => {
  const store = new MemoryStore();
  const link = new Link(store);
  const a = new LeaderElection({ store: link, key: "k", nodeId: "a", ...FAST });
  const errors = [];
  a.on("error", (err) => errors.push(err));
  link.mode = "silent";
  const failed = await a.campaign();
  assert.equal(failed.leader, false);
  assert.equal(failed.holder, undefined);
  assert.equal(failed.error?.name, "StoreError");
  assert.equal(failed.error.code, "ERR_STORE_TIMEOUT");
  assert.equal(failed.error, errors[0], "the error campaign() resolves with is the one emitted");
  link.mode = "reject";
  const b = new LeaderElection({ store: link, key: "k", nodeId: "b", ...FAST });
  b.on("error", () => {});
  const rejected = await b.campaign();
  assert.equal(rejected.error.code, "ERR_STORE_REJECTED");
  // Held by a holder the store does not name: answered, so no error.
  link.mode = () => ({ type: "Held" });
  const c = new LeaderElection({ store: link, key: "k", nodeId: "c", ...FAST });
  c.on("error", () => {});
  assert.deepEqual(await c.campaign(), { leader: false, holder: undefined });
  link.mode = "up";
  await Promise.all([a.close(), b.close(), c.close()]);
});

// The store's answer of the wrong type names the request with its article ("an Acquire").
test("a_reply_of_the_wrong_type_names_what_answers_the_request", async () => {
  const { readReply } = await import("../../pkg/election/protocol.js");
  const acquire = readReply({ type: "Acquire" }, { type: "Released" });
  assert.equal(acquire.code, "ERR_STORE_REPLY");
  assert.match(acquire.message, /^the store answered Acquire with Released; an Acquire is answered by Granted, Held, Rejected$/);
  const renew = readReply({ type: "Renew" }, { type: "Granted", token: 1n, ttl_ms: 5 });
  assert.match(renew.message, /; a Renew is answered by Renewed, Rejected$/);
});

// A request that timed out and whose send() then rejected was reported twice, ERR_STORE_TIMEOUT
// and then ERR_STORE_REJECTED (a break-it pass, on PostgreSQL through a proxy that held the
// connection and then dropped it): one request, one error event.
test("a send that fails after its request timed out adds no second error", async () => {
  const link = new Link(new MemoryStore());
  const e = new LeaderElection({ store: link, key: "k", nodeId: "a", ...FAST });
  const errors = [];
  e.on("error", (err) => errors.push(err));
  let rejectLate;
  link.mode = () => new Promise((_, reject) => (rejectLate = reject));
  const outcome = await e.campaign();
  assert.equal(outcome.error?.code, "ERR_STORE_TIMEOUT");
  const acquire = errors[0].request;
  link.mode = "silent";
  rejectLate(new Error("Connection terminated"));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(
    errors.filter((err) => err.request === acquire).map((err) => err.code),
    ["ERR_STORE_TIMEOUT"],
  );
  await e.close();
});
