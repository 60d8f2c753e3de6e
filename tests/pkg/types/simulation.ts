// Type-checked (tsc --noEmit), never run: the Simulation's public shapes are precise unions
// with number ids and ms numbers (convention 13), node events discriminated by `what`.
import {
  type Fault,
  type MessageKind,
  type Metrics,
  type ProcId,
  type Scenario,
  type ScenarioJSON,
  type SimulationErrorCode,
  type Snapshot,
  type TraceEvent,
  type Violation,
  Simulation,
} from "tenure/sim";
import { type FailoverSetting, Search, type SearchOptionsJSON, type SearchProperty } from "tenure/search";
import type { TenureErrorCode } from "tenure";

const scenario: Scenario = {
  version: 1,
  algorithm: "lease-fencing",
  nodes: 3,
  config: { ttl_ms: 2_000, safety_margin_ms: 300 },
  network: { latency_ms: [1, 10], loss: 0.01 },
  duration_ms: 60_000,
  faults: [
    { at_ms: 5_000, fault: { type: "pause-after-check", node: 1, duration_ms: 3_000 } },
    { at_ms: 9_000, fault: { type: "partition", groups: [[1], [2, 3, "store"]] } },
  ],
};
const raftScenario: Scenario = {
  version: 1,
  algorithm: "raft",
  nodes: 5,
  config: { election_timeout_ms: 150, election_timeout_max_ms: 155, leader_lease: true, leader_lease_drift_ppm: 5_000, propose_interval_ms: 5 },
  network: { duplicate: 0.5 },
  duration_ms: 1_000,
};
void raftScenario;
const sim = new Simulation(scenario);
sim.runUntil(1_000.5);
const stepped: boolean = sim.step();
const now: number = sim.now + sim.endMs;
const seed: number | bigint = sim.seed;
void stepped, now, seed;

const faults: Fault[] = [
  { type: "crash", node: 2 },
  { type: "clock-drift", target: "store", ppm: 200 },
  { type: "link-latency", from: [1], to: ["resource"], min_ms: 5, max_ms: 50 },
  { type: "heal" },
];
for (const fault of faults) sim.inject(fault);

const snap: Snapshot = sim.snapshot();
const time: number = snap.time_ms;
const ids: ProcId[] = snap.nodes.map((n) => n.id);
const tokens: (number | null)[] = snap.nodes.map((n) => n.token);
const acting: boolean = snap.nodes[0].acting_leader;
const kindOfRole: "leader" | "candidate" | "follower" | "crashed" | "service" = snap.nodes[0].role_kind;
const timer = snap.nodes[0].next_timer;
const left: number = timer === null ? 0 : (timer.deadline_ms - snap.time_ms) / timer.wait_ms + timer.armed_ms * 0;
void acting, kindOfRole, left;
// Decision (d): a snapshot's node id goes straight into a fault.
const lead = snap.nodes.find((n) => n.acting_leader);
if (lead !== undefined && typeof lead.id === "number") sim.inject({ type: "crash", node: lead.id });
const deadline: number | null = snap.nodes[0].lease_deadline_ms;
const kinds: MessageKind[] = snap.in_flight.map((m) => m.kind);
const arrivals: number[] = snap.in_flight.map((m) => m.arrival_ms - m.send_ms);
const blocked: [ProcId, ProcId][] = snap.blocked;
void time, ids, tokens, deadline, kinds, arrivals, blocked;
if (snap.resource !== null) {
  for (const w of snap.resource.recent_writes) {
    if (!w.accepted && w.reason === "stale fencing token") {
      const gap: number = w.required - (w.presented ?? 0);
      void gap;
    }
  }
  const highest: number = snap.resource.highest_token;
  void highest;
}

const page = sim.eventsSince(0);
const cursor: number = page.cursor + page.missed;
void cursor;
for (const e of page.events as TraceEvent[]) {
  switch (e.event) {
    case "send": {
      const arrival: number = e.arrival_ms;
      const id: number = e.id;
      void arrival, id;
      break;
    }
    case "node": {
      switch (e.what) {
        case "paused": {
          const paused: number = e.duration_ms;
          void paused;
          break;
        }
        case "stepped-down": {
          const why: "higher-term" | "lease-expired" | string = e.reason;
          const term: number = e.value;
          void why, term;
          break;
        }
        case "crashed":
          // @ts-expect-error a crash carries no value
          void e.value;
          break;
        default:
          break;
      }
      break;
    }
    case "split-brain-started": {
      const who: ProcId[] = e.leaders;
      void who;
      break;
    }
    case "split-brain-ended": {
      const lasted: number = e.duration_ms;
      void lasted;
      break;
    }
    case "fault": {
      const f: Fault = e.fault;
      void f;
      break;
    }
    case "write": {
      const required: number = e.required;
      void required;
      break;
    }
    case "violation": {
      const promised: boolean = e.promised;
      void promised;
      break;
    }
    default:
      break;
  }
}

const metrics: Metrics = sim.metrics();
const elections: number = metrics.elections_total;
const token: number | null = metrics.fencing_token;
const violations: Violation[] = sim.violations();
const leaders: number[] = sim.leaders();
const hash: string = sim.traceHash();
const json: ScenarioJSON = sim.toJSON();
const replay: Simulation = Simulation.fromJSON(JSON.stringify(json));
const checkpoint: Simulation = replay.clone();
const failed: boolean = checkpoint.failed || checkpoint.done;
const code: SimulationErrorCode = "ERR_SCENARIO_RANGE";
// Break-it pass: codes Simulation throws that the union lacked, and the foil algorithm the
// failover lab runs that FailoverSetting lacked.
const thrown: SimulationErrorCode[] = ["ERR_MILLIS_TYPE", "ERR_MILLIS_RANGE", "ERR_MILLIS_PRECISION", "ERR_TOO_LARGE"];
const foil: FailoverSetting = { algorithm: "lease-no-margin", ttl_ms: 2_000 };
const hour: SearchProperty = "no-leader-for=1h";
void thrown, foil, hour;
const any: TenureErrorCode = code;
void elections, token, violations, leaders, hash, failed, any;

// @ts-expect-error times are ms numbers, not bigints
sim.runUntil(5n);
// @ts-expect-error faults are a discriminated union: a crash names a node
sim.inject({ type: "crash", target: 1 });
// @ts-expect-error unknown algorithms are rejected
new Simulation({ ...scenario, algorithm: "paxos" });
// Each algorithm's `config` holds only its own keys (the union on `algorithm`).
const bully: Scenario = { version: 1, algorithm: "bully", nodes: 3, duration_ms: 1_000, config: { failure_timeout_ms: 300 } };
void bully;
// @ts-expect-error ttl_ms is a lease key, not a Raft one
new Simulation({ version: 1, algorithm: "raft", nodes: 3, duration_ms: 1_000, config: { ttl_ms: 5 } });
// @ts-expect-error the foil has no safety margin to set
new Simulation({ version: 1, algorithm: "lease-no-margin", nodes: 3, duration_ms: 1_000, config: { safety_margin_ms: 5 } });
// toJSON()'s config is the algorithm's own: narrowing on `algorithm` narrows it.
if (json.algorithm === "raft") {
  const preVote: boolean | undefined = json.config.pre_vote;
  // @ts-expect-error a Raft scenario's config has no ttl_ms
  void json.config.ttl_ms;
  void preVote;
}
// @ts-expect-error node ids in snapshots are numbers or "store"/"resource", never bigints
const wrong: bigint = snap.nodes[0].id;
void wrong;
// @ts-expect-error the trace hash is a hex string
const wrongHash: bigint = sim.traceHash();
void wrongHash;

// Search.toJSON() gives options the constructor takes back.
const search = new Search({ algorithm: "raft", property: "split-brain", seed: 1n, config: { pre_vote: true } });
const options: SearchOptionsJSON = search.toJSON();
const families: string[] = options.families;
const sameSearch: Search = new Search(options);
void families, sameSearch;
// The property is the union of the names the search takes (generated from its parser's list).
new Search({ algorithm: "bully", property: "no-leader-for=2s" });
new Search({ algorithm: "raft", property: "election-safety" });
// @ts-expect-error a misspelt property is refused at run time, and so by the type
new Search({ algorithm: "bully", property: "split-brian" });
// @ts-expect-error no-leader-for needs a unit, as at run time
new Search({ algorithm: "bully", property: "no-leader-for=2" });
// The getter gives a property shrink and evaluate take back.
const property: SearchProperty = search.property;
void property;
