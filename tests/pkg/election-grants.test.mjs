// Store answers after which no node can lead (design rules 1 and 5): a key whose tokens ran out,
// a grant too short to outlast the safety margin, a grant whose token is not above one this
// node already led under (a store that lost its state). Each is an `error` event with a code,
// and the campaign() that met it resolves with that error, so a service learns why it is not
// leading instead of retrying without a word.
import assert from "node:assert/strict";
import { test } from "node:test";
import { LeaderElection, MemoryStore } from "tenure";
import { FAST, Link, until } from "./helpers/election.mjs";

function election(link) {
  const e = new LeaderElection({ store: link, key: "k", nodeId: "n", ...FAST });
  const errors = [];
  e.on("error", (err) => errors.push(err));
  return { e, errors };
}

test("a_key_with_no_token_left_is_an_error_and_campaign_says_so", async () => {
  const link = new Link(new MemoryStore());
  link.mode = (req) => (req.type === "Acquire" ? { type: "Rejected", reason: "TokensExhausted" } : { type: "Released" });
  const { e, errors } = election(link);
  const outcome = await e.campaign();
  assert.equal(outcome.leader, false);
  assert.equal(outcome.error?.code, "ERR_TOKENS_EXHAUSTED");
  assert.match(outcome.error.message, /no fencing token left to issue for "k" \(Rejected: TokensExhausted\)/);
  assert.equal(errors[0], outcome.error);
  assert.equal(e.isLeader, false);
  await e.close();
});

test("a_grant_too_short_for_the_safety_margin_is_an_error_and_campaign_says_so", async () => {
  const link = new Link(new MemoryStore());
  link.mode = (req) => (req.type === "Acquire" ? { type: "Granted", token: 1n, ttl_ms: 5 } : { type: "Released" });
  const { e, errors } = election(link);
  const outcome = await e.campaign();
  assert.equal(outcome.leader, false);
  assert.equal(outcome.error?.code, "ERR_STORE_CONTRACT");
  assert.match(outcome.error.message, /granted "k" for 5 ms, not above the safety margin of 60 ms \(safetyMarginMs\)/);
  assert.deepEqual(outcome.error.reply, { type: "Granted", token: 1n, ttl_ms: 5 });
  assert.equal(errors[0], outcome.error);
  await e.close();
});

test("a_grant_below_a_token_already_led_under_is_an_error_naming_both", async () => {
  const link = new Link(new MemoryStore());
  const { e, errors } = election(link);
  assert.deepEqual(await e.campaign(), { leader: true, token: 1n });
  // The store restarts without its state: renewals are refused and it grants token 1 again.
  link.mode = (req) => (req.type === "Acquire" ? { type: "Granted", token: 1n, ttl_ms: 300 } : req.type === "Renew" ? { type: "Rejected", reason: "Expired" } : { type: "Released" });
  await until(() => !e.isLeader, 2000, "the refused renewal ends leadership");
  const outcome = await e.campaign();
  assert.equal(outcome.leader, false);
  assert.equal(outcome.error?.code, "ERR_STORE_CONTRACT");
  assert.match(outcome.error.message, /granted "k" with token 1n, not above 1n, a token this node already led under/);
  assert.ok(errors.includes(outcome.error));
  // Once the store issues a token above it again, the node leads.
  link.mode = "up";
  await until(() => e.isLeader, 2000, "led again once the store's tokens moved past 1");
  await e.close();
});

test("an_answer_the_machine_cannot_take_is_given_to_campaign_too", async () => {
  const link = new Link(new MemoryStore());
  link.mode = (req) => (req.type === "Acquire" ? { type: "Granted", token: 1n, ttl_ms: 1e300 } : { type: "Released" });
  const { e, errors } = election(link);
  const outcome = await e.campaign();
  assert.equal(outcome.leader, false);
  assert.equal(outcome.error?.code, "ERR_STORE_REPLY");
  assert.match(outcome.error.message, /^the store's Granted could not be taken: Granted\.ttl_ms /);
  assert.equal(errors[0], outcome.error);
  await e.close();
});
