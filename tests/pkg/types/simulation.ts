// Type-checked (tsc --noEmit), never run: the Simulation's public shapes are precise unions
// with bigint ids and ms numbers (convention 13).
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
const tokens: (bigint | null)[] = snap.nodes.map((n) => n.token);
const deadline: number | null = snap.nodes[0].lease_deadline_ms;
const kinds: MessageKind[] = snap.in_flight.map((m) => m.kind);
const arrivals: number[] = snap.in_flight.map((m) => m.arrival_ms - m.send_ms);
const blocked: [ProcId, ProcId][] = snap.blocked;
void time, ids, tokens, deadline, kinds, arrivals, blocked;
if (snap.resource !== null) {
  for (const w of snap.resource.recent_writes) {
    if (!w.accepted && w.reason === "stale fencing token") {
      const gap: bigint = w.required - (w.presented ?? 0n);
      void gap;
    }
  }
  const highest: bigint = snap.resource.highest_token;
  void highest;
}

const page = sim.eventsSince(0);
const cursor: number = page.cursor + page.missed;
void cursor;
for (const e of page.events as TraceEvent[]) {
  switch (e.event) {
    case "send": {
      const arrival: number = e.arrival_ms;
      const id: bigint = e.id;
      void arrival, id;
      break;
    }
    case "node": {
      const paused: number | null = e.duration_ms;
      const value: bigint | null = e.value;
      void paused, value;
      break;
    }
    case "fault": {
      const f: Fault = e.fault;
      void f;
      break;
    }
    case "write": {
      const required: bigint = e.required;
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
const token: bigint | null = metrics.fencing_token;
const violations: Violation[] = sim.violations();
const leaders: bigint[] = sim.leaders();
const hash: bigint = sim.traceHash();
const json: ScenarioJSON = sim.toJSON();
const replay: Simulation = Simulation.fromJSON(JSON.stringify(json));
const checkpoint: Simulation = replay.clone();
const failed: boolean = checkpoint.failed || checkpoint.done;
const code: SimulationErrorCode = "ERR_SCENARIO_RANGE";
const any: TenureErrorCode = code;
void elections, token, violations, leaders, hash, failed, any;

// @ts-expect-error times are ms numbers, not bigints
sim.runUntil(5n);
// @ts-expect-error faults are a discriminated union: a crash names a node
sim.inject({ type: "crash", target: 1 });
// @ts-expect-error unknown algorithms are rejected
new Simulation({ ...scenario, algorithm: "paxos" });
// @ts-expect-error node ids in snapshots are bigints (or "store"/"resource")
const wrong: number = snap.nodes[0].id;
void wrong;
