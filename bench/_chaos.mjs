// The playground bench's chaos scenarios, shared with the browser tests (the bench runner
// skips files whose name starts with "_").

/** A chaos scenario: a fault every 700 ms drawn by a seeded LCG from Jepsen-style families. */
export function chaosScenario(algorithm, nodes, { seed = 42, durationMs = 120_000 } = {}) {
  let x = BigInt(seed);
  const rand = (n) => {
    x = (x * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    return Number((x >> 33n) % BigInt(n));
  };
  const lease = algorithm.startsWith("lease");
  const faults = [];
  for (let t = 1000; t < durationMs; t += 700) {
    const node = 1 + rand(nodes);
    const kinds = ["crash", "pause", "partition", "drift", "heal", ...(lease ? ["outage", "pause-after-check"] : [])];
    const kind = kinds[rand(kinds.length)];
    const at = (ms, fault) => faults.push({ at_ms: ms, fault });
    if (kind === "crash") {
      at(t, { type: "crash", node });
      at(t + 500, { type: "restart", node });
    } else if (kind === "pause") at(t, { type: "pause", target: node, duration_ms: 300 + rand(2000) });
    else if (kind === "pause-after-check") at(t, { type: "pause-after-check", node, duration_ms: 300 + rand(3000) });
    else if (kind === "partition") {
      const cut = 1 + rand(nodes - 1);
      const ids = Array.from({ length: nodes }, (_, i) => i + 1);
      at(t, { type: "partition", groups: [ids.slice(0, cut), ids.slice(cut)] });
    } else if (kind === "drift") at(t, { type: "clock-drift", target: node, ppm: rand(400_000) - 200_000 });
    else if (kind === "outage") at(t, { type: "store-outage", duration_ms: 200 + rand(1500) });
    else at(t, { type: "heal" });
  }
  const config = algorithm === "raft" ? { election_timeout_ms: 300, heartbeat_interval_ms: 100 } : {};
  return { version: 1, algorithm, nodes, config, network: { latency_ms: [5, 30], loss: 0.02 }, seed, duration_ms: durationMs, faults };
}
