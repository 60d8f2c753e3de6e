// The worked example on a real consensus store: a three-member etcd cluster on 127.0.0.1.
// The leader holds generation N at a PostgreSQL fenced table. Two members stop: the store can
// issue no grant without a majority, the leader steps down at its own local deadline (design
// rule 4) and no contender becomes leader while the majority is gone. The members come back:
// a contender is elected with a greater token and installs it at the fenced table (establish)
// before its first write, and the old generation's write is refused (design rule 1).
import assert from "node:assert/strict";
import { test } from "node:test";
import { LeaderElection } from "tenure";
import { EtcdStore } from "tenure/etcd";
import { createAuditedFence, readAudit } from "./chaos/stores.mjs";
import { etcdClient, pgPool, show, sleep, startPostgres, useServer } from "./helpers.mjs";
import { startEtcdCluster } from "./servers/index.mjs";

const cluster = useServer(() => startEtcdCluster(3));
const postgres = useServer(startPostgres);
const TTL_MS = 2_000; // the cluster's shortest lease: 1.5 x its 1000 ms election timeout, rounded up

async function until(probe, timeoutMs, what, logs = []) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (performance.now() > deadline) {
      const last = logs.map(({ election, log }) => `${election.nodeId}: ${show(log.slice(-3))}`).join("\n");
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${last}`);
    }
    await sleep(20);
  }
}

test("etcd_cluster_without_a_majority_grants_nothing_and_the_leader_steps_down_at_its_deadline", { timeout: 120_000 }, async () => {
  const { hosts, members } = cluster();
  const pool = pgPool(postgres());
  const fence = await createAuditedFence(pool, "orders", "cluster_fence");
  const elect = (nodeId) => {
    const store = new EtcdStore({ client: etcdClient(hosts), timeoutMs: 1_000 });
    // a request may take a few round trips through Raft on a busy machine: 500 ms, not ttl/10
    const election = new LeaderElection({ store, key: "orders", nodeId, ttlMs: TTL_MS, requestTimeoutMs: 500 });
    const log = [];
    for (const kind of ["elected", "lost", "error"]) {
      election.on(kind, (e) =>
        log.push({ kind, at: performance.now(), ...(kind === "error" ? { code: e.code, message: e.message.slice(0, 160) } : e) }),
      );
    }
    return { election, log };
  };

  // Generation N: one of three leads (normally A, which starts first; on a busy machine a slow
  // answer can hand it to another), installs N at the fenced table and writes.
  const all = [elect("A"), elect("B"), elect("C")];
  void all[0].election.campaign();
  await until(() => all[0].log.some((e) => e.kind === "elected" || e.kind === "error"), 15_000, "A's first answer", all);
  for (const { election } of all.slice(1)) void election.campaign();
  const leader = await until(() => all.find(({ election }) => election.isLeader), 15_000, "a leader", all);
  const others = all.filter((x) => x !== leader);
  const n = leader.election.assertLeadership();
  assert.deepEqual(await fence.establish(n), { accepted: true, token: n });
  assert.equal((await fence.write(n, "generation N")).accepted, true);
  await sleep(300);
  assert.ok(leader.election.isLeader && others.every(({ election }) => !election.isLeader), "one leader, the others held out");

  // Two of three members stop (killed: a crash, at once), while the leader holds at least half
  // a second of its lease: no majority.
  const [, second, third] = members;
  await until(() => leader.election.isLeader && leader.election.leaseDeadlineMs - performance.now() > 500, 10_000, "a renewed lease", all);
  let lastDeadline = leader.election.leaseDeadlineMs;
  const stoppingAt = performance.now();
  await Promise.all([second.stop({ signal: "SIGKILL" }), third.stop({ signal: "SIGKILL" })]);
  const stoppedAt = performance.now();
  const watch = setInterval(() => {
    if (leader.election.leaseDeadlineMs !== undefined && leader.election.state === "Leader") lastDeadline = leader.election.leaseDeadlineMs;
  }, 5);
  const lost = await until(() => leader.log.find((e) => e.kind === "lost" && e.at >= stoppingAt), TTL_MS * 3, "the leader to step down", all);
  clearInterval(watch);
  assert.equal(lost.token, n);
  assert.ok(["StoreUnreachable", "RenewalRejected", "LeaseExpired"].includes(lost.reason), show(lost));
  // its clock is performance.now(): it stepped down at its deadline, not later when it noticed
  assert.ok(lost.at >= lastDeadline - 1, `stepped down at ${lost.at.toFixed(1)}, deadline ${lastDeadline.toFixed(1)}`);
  assert.ok(lost.at <= lastDeadline + 150, `stepped down ${(lost.at - lastDeadline).toFixed(1)} ms after its deadline`);
  assert.ok(lost.at - stoppedAt < TTL_MS, "within one ttl of the outage");
  assert.throws(() => leader.election.assertLeadership(), { name: "LeadershipExpiredError" });
  // The old leader's process goes away once it has stepped down (it was on the failing side).
  // Were it to keep contending, its Acquire after the restart would be re-granted generation N,
  // rightly: etcd extends leases when it elects a new leader, so its lease would still be valid.
  await leader.election.close({ timeoutMs: 500 });

  // While the majority is gone: nobody is elected, however long the contenders try.
  await sleep(TTL_MS * 3);
  for (const { log } of all) {
    assert.deepEqual(log.filter((e) => e.kind === "elected" && e.at > stoppingAt), [], "no grant without a majority");
  }
  assert.ok(others.every(({ election }) => !election.isLeader && election.state === "Campaigning"), "the others kept trying");
  const errors = others.flatMap(({ log }) => log.filter((e) => e.kind === "error" && e.at > stoppedAt));
  assert.ok(errors.length > 0, "the failed requests were reported as error events");

  // The members return: someone is elected with a greater token, establishes it, then writes.
  const restartedAt = performance.now();
  await Promise.all([second.start(), third.start()]);
  const winner = await until(
    () => others.find(({ log }) => log.some((e) => e.kind === "elected" && e.token > n)),
    30_000,
    "a leader once the majority is back",
    all,
  );
  const m = winner.election.assertLeadership();
  assert.ok(m > n, `the new generation ${m} > ${n}`);
  console.log(`# etcd cluster: ${winner.election.nodeId} elected #${m} ${((performance.now() - restartedAt) / 1000).toFixed(1)} s after the restart (old #${n})`);
  assert.deepEqual(await fence.establish(m), { accepted: true, token: m }, "the new leader installs its generation first");
  assert.equal((await fence.write(m, `${winner.election.nodeId}: generation M`)).accepted, true);
  // generation N, late: refused
  assert.deepEqual(await fence.write(n, "late, generation N"), { accepted: false, reason: "stale fencing token", presented: n, required: m });
  const audit = await readAudit(pool, "cluster_fence");
  assert.deepEqual(
    audit.map((r) => [r.kind, r.token]),
    [
      ["establish", n],
      ["write", n],
      ["establish", m],
      ["write", m],
    ],
  );
  await Promise.all(others.map(({ election }) => election.close({ timeoutMs: 1_000 })));
});
