// Real stores through LeaderElection (figures only, next to their goals): acquire and renew
// round trips per second on Redis, PostgreSQL and etcd (one request in flight, 127.0.0.1), and
// the failover time after a SIGSTOP of the leader (median of the chaos rounds, ttl 1 s). It
// starts its own servers, as the store tests do, and stops them at the end.
import { LeaderElection } from "tenure";
import { runChaos } from "../tests/stores/chaos/run.mjs";
import { openStore } from "../tests/stores/chaos/stores.mjs";
import { startEtcd, startPostgres, startRedis } from "../tests/stores/servers/index.mjs";
import { ensureStoreServers } from "../scripts/lib/ensure.mjs";

const ACQUIRES = 200;
const RENEWS = 300;
const GOALS = {
  // one in flight on 127.0.0.1: Redis and PostgreSQL answer in one round trip, etcd in two or three
  acquire: { redis: 1_000, postgres: 500, etcd: 150 },
  renew: { redis: 1_000, postgres: 500, etcd: 200 },
};

/** A store wrapper that times every request it forwards (the store's part of a round trip). */
function timed(store) {
  const samples = { Acquire: [], Renew: [], Release: [] };
  return {
    samples,
    store: {
      async send(request) {
        const start = performance.now();
        const reply = await store.send(request);
        samples[request.type].push(performance.now() - start);
        return reply;
      },
    },
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Acquire: campaign() to its result, then release(), ACQUIRES times (each a fresh grant). */
async function acquireRate(store, key) {
  const times = [];
  for (let i = 0; i < ACQUIRES; i++) {
    const election = new LeaderElection({ store, key, nodeId: `bench-${i % 2}`, ttlMs: 10_000 });
    const start = performance.now();
    const result = await election.campaign();
    times.push(performance.now() - start);
    if (!result.leader) throw new Error(`acquire ${i} was not granted: ${JSON.stringify(result)}`);
    await election.close({ timeoutMs: 1_000 });
  }
  return { perSecond: 1_000 / median(times), medianMs: median(times) };
}

/** Renew: a leader renewing back to back (renewIntervalMs 1), timed at the store wrapper. */
async function renewRate(kind, store, key) {
  const probe = timed(store);
  // etcd counts whole seconds: ask 2 s so the renewals are the lease's own
  const ttlMs = kind === "etcd" ? 2_000 : 1_000;
  const election = new LeaderElection({ store: probe.store, key, nodeId: "renewer", ttlMs, renewIntervalMs: 1, maxRoundTripMs: 100, safetyMarginMs: 200 });
  await election.campaign();
  const deadline = performance.now() + 20_000;
  while (probe.samples.Renew.length < RENEWS && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await election.close({ timeoutMs: 1_000 });
  const m = median(probe.samples.Renew);
  return { perSecond: 1_000 / m, medianMs: m, count: probe.samples.Renew.length };
}

export default async function bench() {
  await ensureStoreServers();
  const servers = {};
  try {
    [servers.redis, servers.postgres, servers.etcd] = await Promise.all([startRedis(), startPostgres(), startEtcd()]);
    const specs = {
      redis: { kind: "redis", url: servers.redis.url },
      postgres: { kind: "postgres", config: servers.postgres.config, table: "bench_leadership" },
      etcd: { kind: "etcd", hosts: servers.etcd.hosts },
    };
    const rows = [];
    for (const [name, spec] of Object.entries(specs)) {
      const { store, close } = await openStore(spec);
      try {
        const acquire = await acquireRate(store, `bench-acquire-${name}`);
        const renew = await renewRate(name, store, `bench-renew-${name}`);
        const chaos = await runChaos({ name: `bench_${name}`, store: spec, postgres: servers.postgres.config, ttlMs: 1_000, rounds: 4 });
        rows.push({ name, acquire, renew, chaos });
      } finally {
        await close();
      }
    }
    const pad = (s, n) => String(s).padEnd(n);
    console.log(
      `${pad("store", 10)}${pad("acquire/s (goal)", 22)}${pad("renew/s (goal)", 22)}${pad("failover after SIGSTOP, median (goal)", 40)}min..max`,
    );
    for (const { name, acquire, renew, chaos } of rows) {
      const f = chaos.failoverMs;
      console.log(
        pad(name, 10) +
          pad(`${acquire.perSecond.toFixed(0)} (>= ${GOALS.acquire[name]})`, 22) +
          pad(`${renew.perSecond.toFixed(0)} (>= ${GOALS.renew[name]})`, 22) +
          pad(`${f.median.toFixed(0)} ms (<= 1500 ms at ttl 1000 ms)`, 40) +
          `${f.min.toFixed(0)}..${f.max.toFixed(0)} ms`,
      );
    }
    console.log(
      "acquire: campaign() to its result, through LeaderElection (median of " +
        `${ACQUIRES}); renew: the store's answer to a Renew (median of ${RENEWS}); one request in flight; ` +
        "failover: SIGSTOP of the leader to the next elected event, three contender processes",
    );
  } finally {
    await Promise.all(Object.values(servers).map((s) => s?.stop()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await bench();
