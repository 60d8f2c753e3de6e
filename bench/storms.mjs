// `npm run bench` figures for the message bounds (figures only, each next to its bound):
// - messages per simulated second of a healthy 5-node Raft cluster with a command every 5 ms
//   under 0%, 1% and 50% duplication; bound 4 (n - 1)(h + p) per second (RaftNode docs,
//   "Flow control and the message bound": h heartbeats and p proposals per second, probes
//   after reordering, each request answered once per delivered copy);
// - Bully messages in the first 5 s of a fault-free run at 5, 25 and 64 nodes; bound one
//   start-up round of 3 n (n - 1) / 2 plus n - 1 per 50 ms heartbeat (BullyNode docs).
import { Simulation } from "tenure";

function run(scenario) {
  const sim = new Simulation({ version: 1, seed: 1, ...scenario });
  const start = performance.now();
  sim.runUntil(scenario.duration_ms);
  return { metrics: sim.snapshot().metrics, ms: performance.now() - start };
}

export default async function stormsBench() {
  const secs = 10;
  console.log(`Raft, 5 nodes, a command every 5 ms, ${secs} s simulated: messages per simulated second`);
  const n = 5;
  const bound = 4 * (n - 1) * (1000 / 50 + 1000 / 5);
  for (const duplicate of [0, 0.01, 0.5]) {
    const { metrics, ms } = run({
      algorithm: "raft",
      nodes: n,
      duration_ms: secs * 1000,
      config: { propose_interval_ms: 5 },
      network: { duplicate },
    });
    const rate = metrics.messages_sent / secs;
    console.log(
      `  duplicate ${String(duplicate * 100).padStart(2)}%: ${rate.toFixed(0).padStart(5)} msg/s (bound ${bound}; ${ms.toFixed(0)} ms wall)`,
    );
  }
  console.log("Bully, fault-free, first 5 s: messages sent");
  for (const nodes of [5, 25, 64]) {
    const { metrics, ms } = run({ algorithm: "bully", nodes, duration_ms: 5000 });
    const b = (3 * nodes * (nodes - 1)) / 2 + (nodes - 1) * (1 + 5000 / 50);
    console.log(`  ${String(nodes).padStart(2)} nodes: ${String(metrics.messages_sent).padStart(6)} (bound ${b}; ${ms.toFixed(0)} ms wall)`);
  }
}
