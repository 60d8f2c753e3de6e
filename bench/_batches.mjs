// Batched timing for the boundary goals (bench/lease.mjs, bench/simulation.mjs): wall time and
// this process's CPU time (user + system, all threads, so the engine's GC threads count) taken
// around each batch of calls, over several batches after a warm-up, reported as the median per
// call with its spread. On the shared build machine the wall figure includes waiting for a
// core; the CPU figure does not, so it is the steadier of the two (docs/performance.md).

/**
 * Runs `fn(i)` in `batches` batches of `batch` calls after `warmup` untimed calls and returns
 * the per-call cost of each batch in ns, `{ wall: number[], cpu: number[] }`.
 */
export function batches(fn, { batch = 20_000, batches: count = 15, warmup = 50_000 } = {}) {
  for (let i = 0; i < warmup; i++) fn(i);
  const wall = [];
  const cpu = [];
  for (let b = 0; b < count; b++) {
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) fn(i);
    const elapsed = Number(process.hrtime.bigint() - start);
    const used = process.cpuUsage(cpuStart);
    wall.push(elapsed / batch);
    cpu.push(((used.user + used.system) * 1000) / batch);
  }
  return { wall, cpu };
}

/** The `q` quantile (0..1) of `samples`, nearest rank. */
export function quantile(samples, q) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** `1234.5` ns -> "1.23 us"; `850` -> "850 ns". */
export function ns(v) {
  if (v >= 1e6) return `${(v / 1e6).toFixed(2)} ms`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(2)} us`;
  return `${v.toFixed(0)} ns`;
}

/** "median 2.10 us (IQR 2.05-2.20, min-max 2.01-2.90; 15 batches)", all in the median's unit. */
export function spread(samples) {
  const med = quantile(samples, 0.5);
  const [div, unit] = med >= 1e6 ? [1e6, "ms"] : med >= 1e3 ? [1e3, "us"] : [1, "ns"];
  const f = (v) => (v / div).toFixed(div === 1 ? 0 : 2);
  return (
    `median ${f(med)} ${unit} (IQR ${f(quantile(samples, 0.25))}-${f(quantile(samples, 0.75))}, ` +
    `min-max ${f(Math.min(...samples))}-${f(Math.max(...samples))}; ${samples.length} batches)`
  );
}

/** "met" when the median of `samples` is within `goalNs`, else "NOT YET MET". */
export function verdict(samples, goalNs) {
  return quantile(samples, 0.5) <= goalNs ? "met" : "NOT YET MET";
}
