// The simulator's native criterion benchmark (crates/tenure-sim/benches/sim.rs): simulated
// events/s and simulated seconds per wall second for 5-node Raft and lease-fencing worlds
// under chaos. Figures only.
import { spawnSync } from "node:child_process";
import { root } from "../scripts/lib/run.mjs";

export default async function criterion() {
  const run = spawnSync("cargo", ["bench", "-p", "tenure-sim", "--bench", "sim"], { cwd: root, stdio: "inherit" });
  if (run.status !== 0) throw new Error(`cargo bench exited with ${run.status}`);
}
