// `npm run bench` figures for the message bounds (figures only, each next to its bound):
// - messages per simulated second of a healthy 5-node Raft cluster with a command every 5 ms
//   under 0%, 1% and 50% duplication; bound 4 (n - 1)(h + p) per second (RaftNode docs,
//   "Flow control and the message bound": h heartbeats and p proposals per second, probes
//   after reordering, each request answered once per delivered copy);
// - Bully elections at 5, 25 and 64 nodes (BullyNode docs, "Message bound": elections
//   staggered by rank): the start-up election, bound n - 1 (the highest id's announcement);
//   the election after the coordinator crashes, bound 2 (n - 1); and the first 5 s of a
//   fault-free run, bound n - 1 plus n - 1 per 50 ms heartbeat.
import { Simulation } from "tenure/sim";

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
  console.log("Bully elections: messages sent (start-up, after a coordinator crash, first 5 s)");
  for (const nodes of [5, 25, 64]) {
    const start = performance.now();
    // Start-up: everything sent before the first heartbeat (50 ms).
    const startUp = new Simulation({ version: 1, seed: 1, algorithm: "bully", nodes, duration_ms: 49 });
    startUp.runUntil(49);
    const startUpMsgs = startUp.snapshot().metrics.messages_sent;
    // Failover: the coordinator crashes at 1,010 ms; count until the next one is announced.
    const sim = new Simulation({
      version: 1, seed: 1, algorithm: "bully", nodes, duration_ms: 5000,
      faults: [{ at_ms: 1010, fault: { type: "crash", node: nodes } }],
    });
    sim.runUntil(1010);
    const atCrash = sim.snapshot().metrics.messages_sent;
    let t = 1010;
    while (sim.snapshot().metrics.leaders_now === 0 && t < 5000) sim.runUntil(++t);
    const failover = sim.snapshot().metrics.messages_sent - atCrash;
    const { metrics } = run({ algorithm: "bully", nodes, duration_ms: 5000 });
    const ms = performance.now() - start;
    const total = (nodes - 1) * (1 + 5000 / 50);
    console.log(
      `  ${String(nodes).padStart(2)} nodes: start-up ${String(startUpMsgs).padStart(3)} (bound ${nodes - 1}), ` +
        `failover ${String(failover).padStart(3)} in ${t - 1000} ms (bound ${2 * (nodes - 1)}), ` +
        `5 s ${String(metrics.messages_sent).padStart(5)} (bound ${total}; ${ms.toFixed(0)} ms wall)`,
    );
  }
}
