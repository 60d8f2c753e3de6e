// Real-process chaos on etcd: three contender processes, the leader SIGSTOPped past its ttl
// and resumed four times, then a graceful close; every leader writes to a PostgreSQL fenced
// table with an audit of accepted writes (design rules 1 and 4, docs/scenarios.md S01).
import { after, test } from "node:test";
import { assertChaosSafe } from "./chaos/assert.mjs";
import { killContenders, runChaos } from "./chaos/run.mjs";
import { startEtcd, startPostgres, useServer } from "./helpers.mjs";

const etcd = useServer(startEtcd);
const postgres = useServer(startPostgres);
after(killContenders);

test("etcd_chaos_sigstop_of_the_leader_accepts_no_stale_write_and_no_two_leaders", { timeout: 90_000 }, async () => {
  const report = await runChaos({
    name: "etcd",
    store: { kind: "etcd", hosts: etcd().hosts },
    postgres: postgres().config,
    ttlMs: 1_000,
    rounds: 4,
    log: (line) => console.log(`# etcd ${line}`),
  });
  assertChaosSafe("etcd", report);
});
