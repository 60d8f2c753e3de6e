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

// A node that lost contact with the store (StoreUnreachable) may be granted its own lease
// again under the same token: the store still held it. But once the store said another node
// held the key, the same token can only come from a store that lost its state; leading under
// it gave two leaders one token (a break-it pass, on a Redis restarted without persistence).
const lostContact = async (e, link) => {
  assert.deepEqual(await e.campaign(), { leader: true, token: 1n });
  link.mode = "silent";
  await until(() => !e.isLeader, 2000, "leadership ends at the deadline with the store silent");
};

test("the same token after another node held the key is refused and handed back", async () => {
  const link = new Link(new MemoryStore());
  const { e, errors } = election(link);
  await lostContact(e, link);
  let heldAnswers = 0;
  link.mode = (req) => (req.type === "Acquire" ? (heldAnswers++ < 2 ? { type: "Held", holder: "B", remaining_ms: 20 } : { type: "Granted", token: 1n, ttl_ms: 300 }) : { type: "Released" });
  await until(() => errors.some((err) => err.code === "ERR_STORE_CONTRACT"), 2000, "the re-issued token is refused");
  const refused = errors.find((err) => err.code === "ERR_STORE_CONTRACT");
  assert.match(refused.message, /granted "k" with token 1n, the token this node led under before "B" held the key, so it is no re-grant of this node's lease/);
  assert.equal(e.isLeader, false);
  assert.ok(
    link.requests.some((req) => req.type === "Release" && req.token === 1n),
    "the refused grant is handed back to the store",
  );
  // A token above it is taken.
  link.mode = (req) => (req.type === "Acquire" ? { type: "Granted", token: 3n, ttl_ms: 300 } : req.type === "Renew" ? { type: "Renewed", token: 3n, ttl_ms: 300 } : { type: "Released" });
  await until(() => e.isLeader, 2000, "led under a token above the old one");
  assert.equal(e.fencingToken, 3n);
  link.mode = "up";
  await e.close();
});

test("the same token with no other holder in between is the node's own lease, and is led under", async () => {
  const link = new Link(new MemoryStore());
  const { e, errors } = election(link);
  await lostContact(e, link);
  link.mode = "up"; // the store still holds n's lease: it grants token 1 again
  await until(() => e.isLeader, 2000, "led again under its own lease");
  assert.equal(e.fencingToken, 1n);
  assert.equal(errors.filter((err) => err.code === "ERR_STORE_CONTRACT").length, 0);
  await e.close();
});

test("a token below one led under is refused after lost contact too", async () => {
  const link = new Link(new MemoryStore());
  const { e, errors } = election(link);
  assert.deepEqual(await e.campaign(), { leader: true, token: 1n });
  await e.release();
  link.mode = (req) => (req.type === "Acquire" ? { type: "Granted", token: 5n, ttl_ms: 300 } : req.type === "Renew" ? { type: "Renewed", token: 5n, ttl_ms: 300 } : { type: "Released" });
  assert.deepEqual(await e.campaign(), { leader: true, token: 5n });
  link.mode = "silent";
  await until(() => !e.isLeader, 2000, "leadership ends at the deadline");
  link.mode = (req) => (req.type === "Acquire" ? { type: "Granted", token: 4n, ttl_ms: 300 } : { type: "Released" });
  await until(() => errors.some((err) => err.code === "ERR_STORE_CONTRACT"), 2000, "the lower token is refused");
  assert.match(errors.find((err) => err.code === "ERR_STORE_CONTRACT").message, /with token 4n, below 5n, a token this node already led under/);
  assert.equal(e.isLeader, false);
  link.mode = "up";
  await e.close();
});
