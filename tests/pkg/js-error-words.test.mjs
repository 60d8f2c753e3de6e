// The JS layer's own messages (LeaderElection's options, the store adapters' request and token
// checks, the election's reading of a store reply) are in the caller's words too
// (docs/conventions.md, "errors in the caller's words"): ranges as "from 0n to 2n ** 64n - 1n",
// as the wasm bindings word them, never Rust's `..=`.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { LeaderElection, MemoryStore, ShardedElection } from "tenure";
import { RedisFencedResource, RedisStore } from "tenure/redis";

const RUST_ISMS = readFileSync(new URL("../words/rust-isms.txt", import.meta.url), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "" && !line.startsWith("#"))
  .map((line) => JSON.parse(line));

/** A node-redis-like client that must never be reached: every check here runs before a call. */
const client = { sendCommand: async () => assert.fail("the client was called") };

function assertWords(label, err, code) {
  assert.ok(err instanceof Error, `${label}: nothing thrown`);
  assert.equal(err.code, code, `${label}: ${err.message}`);
  for (const bad of RUST_ISMS) assert.ok(!err.message.includes(bad), `${label}: "${err.message}" contains "${bad}"`);
  assert.match(err.message, /from 0n to 2n \*\* 64n - 1n/, label);
}

const caught = async (fn) => {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  return undefined;
};

test("LeaderElection's nodeId range is worded as the bindings word it", async () => {
  for (const nodeId of [-1n, 2n ** 64n]) {
    const err = await caught(() => new LeaderElection({ store: new MemoryStore(), key: "k", nodeId }));
    assertWords(`nodeId ${nodeId}n`, err, "ERR_NODE_ID_RANGE");
  }
});

test("the adapters' token checks are worded as FencedResource's", async () => {
  const fenced = new RedisFencedResource({ client, key: "k" });
  for (const method of ["write", "establish", "check"]) {
    const err = await caught(() => (method === "write" ? fenced.write(-1n, "x") : fenced[method](2n ** 64n)));
    assertWords(`RedisFencedResource.${method}`, err, "ERR_TOKEN_RANGE");
  }
  const store = new RedisStore({ client });
  const renew = { type: "Renew", key: "k", holder: "a", session: "s", token: -1n, ttl_ms: 1000 };
  assertWords("RedisStore.send Renew", await caught(() => store.send(renew)), "ERR_STORE_REQUEST");
});

test("a store reply with a token out of range is reported in the same words", async () => {
  const store = { send: async (req) => (req.type === "Acquire" ? { type: "Granted", token: -1n, ttl_ms: 1000 } : { type: "Released" }) };
  const election = new LeaderElection({ store, key: "k", ttlMs: 1000 });
  const errors = [];
  election.on("error", (err) => errors.push(err));
  const result = await election.campaign();
  assert.equal(result.leader, false);
  await election.close();
  const reply = errors.find((e) => e.code === "ERR_STORE_REPLY");
  assert.ok(reply, `no ERR_STORE_REPLY among ${errors.map((e) => e.code)}`);
  assert.match(reply.message, /from 0n to 2n \*\* 64n - 1n/);
  assert.ok(!reply.message.includes("..="), reply.message);
});

test("LeaderElection's option errors name the options as written, camelCased", async () => {
  const store = new MemoryStore();
  const cases = [
    [{ ttlMs: 1e300 }, "ERR_MILLIS_RANGE", /^options\.ttlMs must be/],
    [{ ttlMs: 1000.0004 }, "ERR_MILLIS_PRECISION", /^options\.ttlMs must be/],
    [{ ttlMs: 1000, safetyMarginMs: 2000 }, "ERR_CONFIG", /safetyMarginMs 2000 must be above 0 and below ttlMs 1000: 0 < safetyMarginMs < ttlMs/],
    [{ maxDriftPpm: NaN }, "ERR_INTEGER_RANGE", /^options\.maxDriftPpm must be/],
    [{ fencing: "yes" }, "ERR_BOOLEAN_TYPE", /^options\.fencing must be a boolean/],
    [{ seed: 1 }, "ERR_SEED_TYPE", /^options\.seed must be a bigint/],
    [{ key: "k".repeat(70_000) }, "ERR_TOO_LARGE", /^options\.key has 70000 characters/],
  ];
  for (const [options, code, words] of cases) {
    const err = await caught(() => new LeaderElection({ store, key: "k", ...options }));
    assert.equal(err?.code, code, `${JSON.stringify(Object.keys(options))}: ${err?.message}`);
    assert.match(err.message, words);
    assert.doesNotMatch(err.message, /config\.|_ms\b|_ppm\b/, err.message);
  }
  // The refused options changed nothing: the same store still elects.
  const election = new LeaderElection({ store, key: "k", ttlMs: 1000 });
  assert.equal((await election.campaign()).leader, true);
  await election.close();
});

test("close() refuses a bad timeout before closing anything", async () => {
  const election = new LeaderElection({ store: new MemoryStore(), key: "close-k", ttlMs: 1000 });
  assert.equal((await election.campaign()).leader, true);
  let aborted = false;
  let release;
  const work = election.withLeadership(({ signal }) => new Promise((resolve) => {
    release = resolve;
    signal.addEventListener("abort", () => { aborted = true; });
  }));
  for (const [options, code] of [[{ timeoutMs: NaN }, "ERR_MILLIS_RANGE"], [{ timeoutMs: -1 }, "ERR_MILLIS_RANGE"], [{ timeoutMs: "5s" }, "ERR_MILLIS_TYPE"], [{ timeout: 5 }, "ERR_UNKNOWN_KEY"], [5, "ERR_OBJECT_TYPE"]]) {
    await assert.rejects(election.close(options), (err) => err.code === code && /^close: options/.test(err.message), JSON.stringify(options));
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(aborted, false, "the work in flight was not aborted");
  assert.equal(election.isLeader, true, "still leading");
  release("done");
  assert.equal(await work, "done");
  await election.close({ timeoutMs: 100 });
  assert.equal(election.state, "Stopped");
  const shards = new ShardedElection({ store: new MemoryStore(), keys: ["a"], ttlMs: 500 });
  await assert.rejects(shards.close({ timeoutMs: NaN }), (err) => err.code === "ERR_MILLIS_RANGE" && /^ShardedElection\.close: /.test(err.message));
  await shards.close();
});

test("a store request that cannot be read is refused with a code, and each field is read once", async () => {
  const store = new RedisStore({ client });
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const revoked = await caught(() => store.send(proxy));
  assert.equal(revoked.code, "ERR_REVOKED_PROXY");
  assert.equal(revoked.message, "RedisStore.send: the request is a revoked Proxy and cannot be read");
  const throwing = { type: "Acquire", holder: "a", session: "s", ttl_ms: 1000, get key() { throw new Error("no key today"); } };
  const threw = await caught(() => store.send(throwing));
  assert.equal(threw.code, "ERR_INPUT_THREW");
  assert.equal(threw.message, "no key today");
  // A getter that answers differently on a second read is asked once: the checked value is sent.
  let reads = 0;
  const sent = [];
  const counting = new RedisStore({ client: { sendCommand: async (args) => (sent.push(args), [1, "1", "1000"]) } });
  const shifty = { type: "Acquire", holder: "a", session: "s", ttl_ms: 1000, get key() { reads++; return reads === 1 ? "k" : "k\uD800"; } };
  await counting.send(shifty).catch(() => {});
  assert.equal(reads, 1);
  assert.ok(sent.length === 0 || sent.every((args) => !args.some((a) => String(a).includes("\uD800"))), "the lone surrogate never reached the client");
});
