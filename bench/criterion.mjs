// The simulator's native criterion benchmark (crates/tenure-sim/benches/sim.rs): simulated
// events/s and simulated seconds per wall second for 5-node Raft and lease-fencing worlds
// under chaos, then the speed goals, each after a warm-up (criterion's own before each
// measured group; warm-up runs before the loops it times by hand). `cargo bench` builds with
// the `bench` profile, which inherits `release`: the speed profile (opt-level 3, fat LTO, one
// codegen unit; Cargo.toml), not the size-tuned `wasm` profile. Figures only.
import { spawnSync } from "node:child_process";
import { root } from "../scripts/lib/run.mjs";

export default async function criterion() {
  console.log("cargo bench -p tenure-sim --bench sim (profile bench = release: opt-level 3, lto = fat)");
  const run = spawnSync("cargo", ["bench", "-p", "tenure-sim", "--bench", "sim"], { cwd: root, stdio: "inherit" });
  if (run.status !== 0) throw new Error(`cargo bench exited with ${run.status}`);
}
