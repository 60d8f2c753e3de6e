// The three verification tests of the lease-and-fencing design (design rules 1, 4, 10),
// written against LeaderElection + MemoryStore: a deposed leader's write is refused by the
// fenced resource; a leader cut off from its store demotes itself within one lease period;
// and no two processes act as leader at once over a chaos run of store outages, latency, loss and
// paused event loops (child processes stopped with SIGSTOP, the store in this process).
import assert from "node:assert/strict";
import { test } from "node:test";
import { FencedResource, LeaderElection, MemoryStore } from "tenure";
import { FAST, Link, record, until, wait } from "./helpers/election.mjs";
import { Broker } from "./helpers/broker.mjs";

test("a_deposed_leaders_write_is_rejected_with_stale_fencing_token", async () => {
  const store = new MemoryStore();
  const resource = new FencedResource();
  const linkA = new Link(store);
  const a = new LeaderElection({ store: linkA, key: "orders", nodeId: "node-a", ...FAST });
  const b = new LeaderElection({ store, key: "orders", nodeId: "node-b", ...FAST });
  const first = await a.campaign();
  assert.equal(first.leader, true);
  const firstToken = first.token;
  assert.deepEqual(resource.write(a.assertLeadership(), "from a"), { accepted: true, token: firstToken });

  linkA.mode = "cut"; // node-a is partitioned from the store
  const refused = await b.campaign();
  assert.deepEqual(refused, { leader: false, holder: "node-a" });
  const second = await until(() => b.isLeader && b.fencingToken, 2000, "node-b elected");
  assert.ok(second > firstToken, `second token ${second} > ${firstToken}`);
  resource.establish(second);

  const stale = resource.write(firstToken, "value-x");
  assert.equal(stale.accepted, false);
  assert.equal(stale.reason, "stale fencing token");
  assert.deepEqual(stale, { accepted: false, reason: "stale fencing token", presented: firstToken, required: second });
  // node-a had already demoted itself, and reporting the rejection changes nothing more.
  assert.equal(a.isLeader, false);
  a.reportFenced(stale);
  await Promise.all([a.close(), b.close()]);
});

test("a_leader_blocked_from_its_store_demotes_itself_within_one_lease_period", async () => {
  const store = new MemoryStore();
  const link = new Link(store);
  const leader = new LeaderElection({ store: link, key: "jobs", nodeId: "node-a", ...FAST });
  const rec = record(leader);
  assert.equal((await leader.campaign()).leader, true);
  const blockedAt = performance.now();
  link.mode = "silent";
  await wait(FAST.ttlMs);
  assert.equal(leader.isLeader, false);
  assert.equal(leader.fencingToken, undefined);
  assert.throws(() => leader.assertLeadership(), { name: "LeadershipExpiredError" });
  const lost = rec.events.find(([name]) => name === "lost");
  assert.equal(lost[1].reason, "StoreUnreachable");
  assert.ok(lost[2] - blockedAt <= FAST.ttlMs - FAST.safetyMarginMs + 20, `lost ${lost[2] - blockedAt} ms after the block`);
  assert.ok(rec.errors.some((e) => e.code === "ERR_STORE_TIMEOUT"));
  link.mode = "up";
  await leader.close();
});

test("no_two_processes_act_as_leader_at_once_under_outages_latency_and_pauses", { timeout: 60_000 }, async () => {
  const seed = BigInt(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 32));
  console.log(`chaos seed ${seed} (CHAOS_SEED=${seed} replays the store's latency and loss draws)`);
  const store = new MemoryStore({ latencyMs: [0, 12], lossRate: 0.02, seed });
  const broker = new Broker(store);
  const ttl = { ttlMs: 400, safetyMarginMs: 80, maxRoundTripMs: 60, requestTimeoutMs: 60, retryIntervalMs: 40, retryJitterMs: 40 };
  const children = ["c1", "c2", "c3"].map((nodeId) => broker.spawn({ role: "sampler", nodeId, key: "chaos", options: ttl }));
  await Promise.all(children.map((c) => c.ready));
  let rand = Number(seed % 2147483647n) || 1;
  const next = () => (rand = (rand * 48271) % 2147483647) / 2147483647;
  const end = performance.now() + 14_000;
  const faults = { pause: 0, outage: 0 };
  while (performance.now() < end) {
    await wait(150 + next() * 450);
    const roll = next();
    if (roll < 0.55) {
      // Pause a process, the leader more often than not: its timers fire late, its beliefs are stale.
      const leader = children.find((c) => store.holder("chaos")?.holder === c.nodeId);
      const victim = leader && next() < 0.7 ? leader : children[Math.floor(next() * children.length)];
      victim.stop();
      await wait(100 + next() * 700);
      victim.cont();
      faults.pause++;
    } else if (roll < 0.85) {
      store.setAvailable(false);
      await wait(100 + next() * 500);
      store.setAvailable(true);
      faults.outage++;
    }
  }
  const reports = await Promise.all(children.map((c) => c.finish()));
  await broker.close();
  // Each leadership (token) as [first check passed, last check passed], in true time.
  const spans = reports.flatMap((r) => r.spans.map((s) => ({ node: r.nodeId, ...s })));
  spans.sort((x, y) => x.from - y.from);
  assert.ok(new Set(spans.map((s) => s.token)).size >= 3, `too few leaderships to judge: ${spans.length}`);
  assert.equal(new Set(spans.map((s) => s.token)).size, spans.length, "a token was used by two processes");
  for (let i = 1; i < spans.length; i++) {
    const [prev, cur] = [spans[i - 1], spans[i]];
    assert.ok(prev.to < cur.from, `two leaders at once: ${prev.node} #${prev.token} until ${prev.to}, ${cur.node} #${cur.token} from ${cur.from}`);
    assert.ok(prev.token < cur.token, `tokens out of order: #${prev.token} then #${cur.token}`);
  }
  console.log(spans.map((s) => `${s.node} #${s.token} ${s.from.toFixed(1)}..${s.to.toFixed(1)}`).join("\n"));
  console.log(`chaos: ${spans.length} leaderships, ${faults.pause} pauses, ${faults.outage} outages, ${reports.reduce((n, r) => n + r.checks, 0)} checks`);
});
