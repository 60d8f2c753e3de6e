// Shared by the bench/*.mjs files (the runner skips names starting with "_").

/**
 * Times `fn` (one call = one operation) and returns the median per-operation cost in
 * nanoseconds over `rounds` rounds of `batch` calls each, after one warm-up round.
 */
export function timePerOp(fn, { batch = 10_000, rounds = 7 } = {}) {
  for (let i = 0; i < batch; i++) fn(i);
  const samples = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) fn(i);
    samples.push(Number(process.hrtime.bigint() - start) / batch);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

/** `1234.5` ns -> "1.23 us"; `850` -> "850 ns". */
export function formatNs(ns) {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(2)} us`;
  return `${ns.toFixed(0)} ns`;
}

/**
 * As {@link timePerOp}, on this process's CPU time (user + system, all threads) rather than
 * wall time: the steadier figure on a shared, loaded machine.
 */
export function cpuPerOp(fn, { batch = 10_000, rounds = 7 } = {}) {
  for (let i = 0; i < batch; i++) fn(i);
  const samples = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < batch; i++) fn(i);
    const used = process.cpuUsage(start);
    samples.push(((used.user + used.system) * 1000) / batch);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}
