// `npm run fuzz`: each machine's fuzz target for a while (default 60 s each), printing its
// exec count. `npm run fuzz -- 300 raft` fuzzes only raft for 300 s. Crashes are saved under
// fuzz/artifacts/<target>/ and replay with `cargo +nightly fuzz run --fuzz-dir fuzz <target> <file>`.
import { fuzz, TARGETS } from "./lib/fuzz.mjs";

const args = process.argv.slice(2);
const seconds = Number(args.find((a) => /^\d+$/.test(a)) ?? 60);
const targets = args.filter((a) => TARGETS.includes(a));
for (const r of fuzz({ seconds, targets: targets.length > 0 ? targets : TARGETS })) {
  console.log(`${r.target.padEnd(6)} ${String(r.execs).padStart(10)} execs in ${seconds} s (${r.engine}); goal: no crash, bounded outputs`);
}
