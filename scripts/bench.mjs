// `npm run bench`: figures, not pass/fail.
// The simulator's criterion benchmark: simulated events/s and simulated seconds per wall
// second for 5-node Raft and lease-fencing worlds under chaos.
import { spawnSync } from "node:child_process";

const run = spawnSync("cargo", ["bench", "-p", "tenure-sim", "--bench", "sim"], {
  stdio: "inherit",
});
process.exit(run.status ?? 1);
