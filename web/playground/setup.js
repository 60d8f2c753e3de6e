// Setup: the scenario a user builds from the controls (algorithm, node count, seed, timing
// knobs), and the reverse (the controls' values from a scenario, e.g. a preset or a link).

import { INFO } from "./info.js";

/** Free-play length: long enough never to end while someone watches. */
export const FREE_PLAY_MS = 3_600_000;
/**
 * Free play's links: 20-60 ms, played at 0.1x (the element's default speed), puts a message
 * on screen for 200-600 ms, readable motion rather than a flicker, while a Raft election
 * (300-600 ms timeouts) still takes seconds, not minutes.
 */
export const DEFAULT_NETWORK = { latency_ms: [20, 60] };

/**
 * Timing knobs per algorithm family: [key, label, min, max, step, unit]. Fields take the unit
 * typed ("2 s", "1%"): see fields.js. Their starting values are PAGE_KNOBS, then the
 * simulator's own defaults, read from `Simulation.effectiveConfig()` (setupOf), not restated.
 */
export const KNOBS = {
  lease: [
    ["ttl_ms", "Lease TTL (ms)", 500, 10000, 100, "ms"],
    ["safety_margin_ms", "Safety margin (ms)", 50, 3000, 10, "ms"],
    ["renew_interval_ms", "Renew interval (ms)", 50, 5000, 10, "ms"],
    ["max_drift_ppm", "Clock-drift bound (ppm, or %)", 0, 150000, 1000, "ppm"],
  ],
  raft: [
    ["election_timeout_ms", "Election timeout T (ms), waits in [T, 2T)", 50, 2000, 10, "ms"],
    ["heartbeat_interval_ms", "Heartbeat interval (ms)", 10, 1000, 10, "ms"],
  ],
  bully: [
    ["heartbeat_interval_ms", "Heartbeat interval (ms)", 10, 1000, 10, "ms"],
    ["failure_timeout_ms", "Failure timeout (ms)", 50, 3000, 10, "ms"],
  ],
};

/**
 * Knobs the page sets on purpose instead of taking the simulator's defaults: Raft's timings at
 * twice the simulator's (150 ms election timeout, 50 ms heartbeat), to suit free play's 20-60
 * ms links (DEFAULT_NETWORK), so an election reads as motion. Every other knob starts at the
 * simulator's default.
 */
const PAGE_KNOBS = { raft: { election_timeout_ms: 300, heartbeat_interval_ms: 100 } };

/** The knobs a choice starts with before the simulator's defaults fill the rest. */
export function startKnobs(choice) {
  return { ...(PAGE_KNOBS[family(choice)] ?? {}) };
}

/** The knobs of a choice: its own set (`knobs` in its info.js entry), else its family's. */
export function knobsFor(choice) {
  return INFO[choice]?.knobs ?? KNOBS[family(choice)];
}

/** The knob family of a playground algorithm choice. */
export function family(choice) {
  return choice.startsWith("lease") ? "lease" : choice.startsWith("raft") ? "raft" : "bully";
}

/**
 * The scenario for a setup. The drift bound is the lease's assumption (`max_drift_ppm`, rule 5:
 * the margin must cover it over one TTL), not a drift: clocks drift only when a fault says so.
 */
export function buildScenario({ choice, nodes, seed, knobs, durationMs = FREE_PLAY_MS, network = DEFAULT_NETWORK }) {
  const fam = family(choice);
  const config = {};
  for (const [k] of knobsFor(choice)) if (knobs[k] != null) config[k] = knobs[k];
  if (choice === "raft") Object.assign(config, { pre_vote: false, check_quorum: false });
  if (choice === "raft-pv-cq") Object.assign(config, { pre_vote: true, check_quorum: true });
  return {
    version: 1,
    algorithm: choice === "raft-pv-cq" ? "raft" : choice,
    nodes,
    config,
    network,
    seed,
    duration_ms: durationMs,
    faults: [],
  };
}

/**
 * The control values for a scenario: { choice, nodes, seed, knobs }. `effective` (the
 * simulator's effective config, `Simulation.effectiveConfig()`) fills the knobs the scenario
 * left out with what the simulator runs with (the simulator's defaults).
 */
export function setupOf(scenario, effective = {}) {
  const own = scenario.config ?? {};
  const c = { ...effective, ...own };
  let choice = scenario.algorithm;
  if (choice === "raft" && own.pre_vote !== false && own.check_quorum !== false) choice = "raft-pv-cq";
  const knobs = {};
  for (const [k] of knobsFor(choice)) if (c[k] != null) knobs[k] = c[k];
  return { choice, nodes: Number(scenario.nodes), seed: Number(scenario.seed ?? 1), knobs };
}

/** A fresh seed, for "restart with a new seed" (the run itself is seeded, never random). */
export function newSeed() {
  return 1 + (crypto.getRandomValues(new Uint32Array(1))[0] % 1_000_000);
}
