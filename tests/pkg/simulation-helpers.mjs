// Shared helpers of the Simulation tests (not a test file itself).

/** A scenario object with defaults for the fields a test does not care about. */
export function scenario(algorithm, fields = {}) {
  return { version: 1, algorithm, nodes: 3, seed: 7, duration_ms: 20_000, ...fields };
}

/** Runs `sim` in `step_ms` slices until `pick(snapshot)` returns something, or throws. */
export function runUntilFound(sim, pick, { step_ms = 10, limit_ms = sim.endMs } = {}) {
  while (sim.now < limit_ms) {
    sim.runUntil(Math.min(sim.now + step_ms, limit_ms));
    const found = pick(sim.snapshot());
    if (found !== undefined && found !== null && found !== false) return found;
  }
  throw new Error(`nothing found by ${limit_ms} ms`);
}

/** The node acting as leader in a snapshot, if exactly one is. */
export function soleLeader(snap) {
  const leaders = snap.nodes.filter((n) => n.role === "Leader" && n.status === "up");
  return leaders.length === 1 ? leaders[0] : undefined;
}

/** A node id as scenario/fault JSON names it (a plain number; ids in snapshots already are). */
export const ref = (id) => Number(id);

/** mulberry32: a tiny seeded PRNG, so the chaos schedules below are fixed by their seed. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A chaos fault schedule in the seed's terms ("Verification": partitions, pauses and
 * restarts): every 1-4 s one of isolate a minority, split into two sides, pause a node,
 * crash a node (restarted 0.5-3 s later), or heal; everything heals 10 s before the end.
 */
export function chaosFaults(seed, nodes, duration_ms) {
  const rand = prng(seed);
  const pick = (n) => 1 + Math.floor(rand() * n);
  const faults = [];
  const heal_at = duration_ms - 10_000;
  for (let t = 500 + Math.floor(rand() * 1000); t < heal_at; t += 1000 + Math.floor(rand() * 3000)) {
    const kind = Math.floor(rand() * 5);
    const node = pick(nodes);
    if (kind === 0) {
      faults.push({ at_ms: t, fault: { type: "isolate", nodes: [node] } });
    } else if (kind === 1) {
      const side = [...Array(nodes).keys()].map((i) => i + 1).filter(() => rand() < 0.5);
      const rest = [...Array(nodes).keys()].map((i) => i + 1).filter((i) => !side.includes(i));
      if (side.length > 0 && rest.length > 0) faults.push({ at_ms: t, fault: { type: "partition", groups: [side, rest] } });
    } else if (kind === 2) {
      faults.push({ at_ms: t, fault: { type: "pause", target: node, duration_ms: 200 + Math.floor(rand() * 3000) } });
    } else if (kind === 3) {
      faults.push({ at_ms: t, fault: { type: "crash", node } });
      faults.push({ at_ms: t + 500 + Math.floor(rand() * 2500), fault: { type: "restart", node } });
    } else {
      faults.push({ at_ms: t, fault: { type: "heal" } });
    }
  }
  faults.push({ at_ms: heal_at, fault: { type: "heal" } });
  for (let n = 1; n <= nodes; n++) faults.push({ at_ms: heal_at, fault: { type: "restart", node: n } });
  return faults;
}

/** JSON.stringify that shows bigints as `5n`, for assertion messages. */
export const show = (v) => JSON.stringify(v, (_, x) => (typeof x === "bigint" ? `${x}n` : x));
