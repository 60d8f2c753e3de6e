// The driver layer's declarations under strict: LeaderElection, MemoryStore, a custom store,
// the events' payloads, withLeadership's context, and the kit's reports.
import { FencedResource, LeaderElection, LeadershipExpiredError, MemoryStore, ShardedElection, StoreError } from "tenure";
import type { CampaignResult, ElectionMetricsSnapshot, Store, StoreReply, StoreProtocolRequest } from "tenure";
import { checkStoreContract, contractCases, runDifferential } from "tenure/testing";
import type { ContractReport, DifferentialReport } from "tenure/testing";

const store = new MemoryStore({ latencyMs: [1, 5], lossRate: 0.01, seed: 7n });
store.setAvailable(true);
const election = new LeaderElection({ store, key: "orders", nodeId: "node-a", ttlMs: 2000 });
const byBigint = new LeaderElection({ store, key: "orders", nodeId: 7n, safetyMarginMs: 200, renewIntervalMs: null });
const resource = new FencedResource();

election.on("elected", ({ key, token }) => {
  const k: string = key;
  const t: bigint = token;
  void [k, t];
});
election.on("lost", ({ reason }) => {
  const r: "LeaseExpired" | "RenewalRejected" | "Fenced" | "Released" | "StoreUnreachable" = reason;
  void r;
});
election.on("error", (err) => {
  const e: StoreError = err;
  const code: string = e.code;
  const req: StoreProtocolRequest | undefined = e.request;
  void [code, req, e.reply];
});

async function main(): Promise<void> {
  const result: CampaignResult = await election.campaign();
  if (result.leader) {
    const t: bigint = result.token;
    void t;
  } else if (result.error !== undefined) {
    // A failed attempt: the error narrows the holder to undefined.
    const code: string = result.error.code;
    const none: undefined = result.holder;
    void [code, none];
  } else {
    const h: string | undefined = result.holder;
    void h;
  }
  const written: number = await election.withLeadership(async ({ token, signal }) => {
    const s: AbortSignal = signal;
    const out = resource.write(token, "ship");
    if (!out.accepted) election.reportFenced(out);
    void s;
    return 1;
  });
  try {
    election.assertLeadership();
  } catch (err) {
    if (err instanceof LeadershipExpiredError) {
      const d: number | undefined = err.deadlineMs;
      const c: "ERR_LEADERSHIP_EXPIRED" | "ERR_NOT_LEADER" | "ERR_CLOSED" = err.code;
      void [d, c];
    }
  }
  const m: ElectionMetricsSnapshot = election.metrics();
  const leading: 0 | 1 = m.leader_election_is_leader;
  const tok: bigint | undefined = election.fencingToken;
  void [written, leading, tok, election.isLeader, election.leaseDeadlineMs];
  await election.release();
  await election.close({ timeoutMs: 100 });
  await byBigint.close();

  const custom: Store = {
    async send(request: StoreProtocolRequest): Promise<StoreReply | undefined> {
      if (request.type === "Acquire") return { type: "Held" };
      if (request.type === "Renew") return { type: "Rejected", reason: "Unknown" };
      return { type: "Released" };
    },
  };
  const report: ContractReport = await checkStoreContract(() => custom, { ttlMs: 200, numbering: "increasing" });
  const failed: string[] = report.failed;
  const diff: DifferentialReport = await runDifferential(() => new MemoryStore(), { steps: 10 });
  const breaches: number = diff.counts.breach;
  void [failed, breaches, contractCases.length];

  const shards = new ShardedElection({ store, keys: ["s0", "s1"], nodeId: "p1", maxLeading: 1, group: "workers", probeIntervalMs: 500 });
  shards.on("elected", ({ key }) => void key);
  shards.start();
  const mine: string[] = shards.leading;
  const members: number | undefined = shards.members;
  const token: bigint | undefined = shards.election("s0").fencingToken;
  void [mine, members, token];
  election.on("held", ({ holder }) => {
    const h: string | undefined = holder;
    void h;
  });
  await shards.close();
}
void main;

// What the declarations refuse.
// @ts-expect-error: no such event
election.on("leader", () => {});
// @ts-expect-error: options are camelCased
new LeaderElection({ store, key: "k", ttl_ms: 100 });
// @ts-expect-error: a store needs send()
new LeaderElection({ store: {}, key: "k" });
const badStore: Store = {
  // @ts-expect-error: a token is a bigint
  async send() { return { type: "Granted", token: 1, ttl_ms: 100 }; },
};
void badStore;

// TenureErrorCode covers every code the package throws, the JavaScript layer's included (it
// used to be the wasm bindings' union only, without ERR_STORE_OPTIONS, ERR_STORE_REQUEST,
// ERR_VALUE_TYPE, the event codes or the search codes).
import type { AdapterErrorCode, DriverErrorCode, LeadershipErrorCode, StoreErrorCode, TenureErrorCode, TestingFailureCode } from "tenure";
import type { CloseFailure, MakeStoreFailure } from "tenure/testing";
import type { SearchErrorCode } from "tenure/search";
const jsCodes: TenureErrorCode[] = ["ERR_STORE_OPTIONS", "ERR_STORE_REQUEST", "ERR_VALUE_TYPE", "ERR_STORE", "ERR_FENCED_ROW_MISSING", "ERR_LISTENER", "ERR_LEADERSHIP_EXPIRED", "ERR_SEARCH_TYPE", "ERR_RESERVED_KEY", "ERR_METRIC_EXISTS", "ERR_STORE_CLOSE_TIMEOUT", "ERR_TOKEN_RANGE", "ERR_SCENARIO_TYPE"];
const parts: TenureErrorCode[] = [] as (AdapterErrorCode | DriverErrorCode | LeadershipErrorCode | StoreErrorCode | TestingFailureCode | SearchErrorCode)[];
const closeFailure = (r: ContractReport): CloseFailure | undefined => r.closeFailures[0];
const makeFailure = (d: DifferentialReport): MakeStoreFailure | undefined => d.makeStoreFailure;
const caseCode: TenureErrorCode | undefined = ({} as ContractReport).cases[0].code;
const makeCodes: TenureErrorCode[] = ["ERR_MAKE_STORE_FAILED", "ERR_MAKE_STORE_TIMEOUT"];
// @ts-expect-error: not a code of the package
const notACode: TenureErrorCode = "ERR_NOPE";
void [jsCodes, parts, closeFailure, makeFailure, caseCode, makeCodes, notACode];
