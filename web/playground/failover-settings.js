// Failover-lab settings: the knobs per algorithm (the simulator's `failover_setting::Setting`
// fields), a label, and the `tenure failover` command line that measures the same thing.

export const LAB_ALGORITHMS = [
  ["raft", "Raft"],
  ["lease-fencing", "Lease with fencing"],
  ["lease-unfenced", "Lease without fencing"],
  ["bully", "Bully"],
];

/** [key, label, default, min, max] per algorithm family, ms. */
export const LAB_KNOBS = {
  raft: [["timeout_min", "Election timeout min (ms)", 150, 1, 60000], ["timeout_max", "Election timeout max (ms), exclusive", 300, 2, 60000]],
  lease: [["ttl_ms", "Lease TTL (ms)", 2000, 100, 600000], ["safety_margin_ms", "Safety margin (ms)", 300, 1, 600000]],
  bully: [["failure_timeout_ms", "Failure timeout (ms)", 200, 1, 60000], ["answer_timeout_ms", "Answer timeout (ms)", 50, 1, 60000], ["coordinator_timeout_ms", "Coordinator timeout (ms)", 150, 1, 60000]],
};

export const labFamily = (a) => (a.startsWith("lease") ? "lease" : a);

/** The Raft paper's Figure 16 (top): the election timeout's random range widened. */
export const FIGURE_16 = [[150, 151], [150, 155], [150, 175], [150, 200], [150, 300]];

/** The Setting JSON for `algorithm` and knob values (`{ key: ms }`), with the world. */
export function settingOf(algorithm, knobs, { nodes = 5, latency } = {}) {
  const s = { algorithm, nodes };
  if (algorithm === "raft") s.election_timeout_ms = [knobs.timeout_min, knobs.timeout_max];
  if (algorithm.startsWith("lease")) Object.assign(s, { ttl_ms: knobs.ttl_ms, safety_margin_ms: knobs.safety_margin_ms });
  if (algorithm === "bully") Object.assign(s, { failure_timeout_ms: knobs.failure_timeout_ms, answer_timeout_ms: knobs.answer_timeout_ms, coordinator_timeout_ms: knobs.coordinator_timeout_ms });
  if (latency) s.latency_ms = latency;
  return s;
}

/** `tenure failover ...` for one setting (the same runs, printed natively). */
export function cliCommand(setting, { seed, runs, disturbance }) {
  const a = ["tenure failover", `--algorithm ${setting.algorithm}`, `--nodes ${setting.nodes}`];
  if (setting.election_timeout_ms) a.push(`--election-timeout-ms ${setting.election_timeout_ms[0]}-${setting.election_timeout_ms[1]}`);
  if (setting.ttl_ms != null) a.push(`--ttl-ms ${setting.ttl_ms}`);
  if (setting.safety_margin_ms != null) a.push(`--safety-margin-ms ${setting.safety_margin_ms}`);
  if (setting.failure_timeout_ms != null) a.push(`--failure-timeout-ms ${setting.failure_timeout_ms}`);
  if (setting.answer_timeout_ms != null) a.push(`--answer-timeout-ms ${setting.answer_timeout_ms}`);
  if (setting.coordinator_timeout_ms != null) a.push(`--coordinator-timeout-ms ${setting.coordinator_timeout_ms}`);
  if (setting.latency_ms) a.push(`--latency-ms ${setting.latency_ms[0]}-${setting.latency_ms[1]}`);
  a.push(`--runs ${runs}`, `--seed ${seed}`);
  if (disturbance) a.push(`--cost-run ${disturbance.run_ms}ms`, `--pauses-per-hour ${disturbance.pauses_per_hour}`, `--pause ${disturbance.pause_ms}ms`);
  return a.join(" ");
}
