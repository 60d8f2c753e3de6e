// Runs the fuzz targets of fuzz/ (one per machine: raft, bully, lease) for a while each and
// reports their exec counts. With nightly and cargo-fuzz: libFuzzer (`cargo +nightly fuzz
// run`); without them: the same target bodies on stable from a seeded generator.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { ensureFuzzTools } from "./ensure.mjs";
import { root } from "./run.mjs";

export const TARGETS = ["raft", "bully", "lease"];

/** Fuzzes each of `targets` for `seconds`; throws on a crash. Returns [{ target, execs, engine }]. */
export function fuzz({ seconds, targets = TARGETS }) {
  const target = process.env.CARGO_TARGET_DIR ?? join(root, "target");
  const results = [];
  if (ensureFuzzTools()) {
    for (const t of targets) {
      const r = spawnSync(
        "cargo",
        ["+nightly", "fuzz", "run", "--fuzz-dir", "fuzz", t, "--", `-max_total_time=${seconds}`, "-print_final_stats=1"],
        { cwd: root, encoding: "utf8", env: { ...process.env, CARGO_TARGET_DIR: join(target, "fuzz") }, maxBuffer: 64 << 20 },
      );
      const out = `${r.stdout}\n${r.stderr}`;
      if (r.status !== 0) {
        throw new Error(`fuzz target ${t} failed (exit ${r.status}); the crashing input is under fuzz/artifacts/${t}/\n${out.slice(-4000)}`);
      }
      const execs = Number(out.match(/stat::number_of_executed_units:\s*(\d+)/)?.[1] ?? NaN);
      results.push({ target: t, execs, engine: "libFuzzer" });
    }
    return results;
  }
  const r = spawnSync(
    "cargo",
    ["run", "--release", "-q", "--manifest-path", "fuzz/Cargo.toml", "--no-default-features", "--bin", "smoke", "--", "--seconds", String(seconds), ...targets],
    { cwd: root, encoding: "utf8", env: { ...process.env, CARGO_TARGET_DIR: join(target, "fuzz-stable") } },
  );
  if (r.status !== 0) throw new Error(`stable fuzz smoke failed:\n${r.stdout}\n${r.stderr}`);
  for (const line of r.stdout.trim().split("\n")) {
    const m = line.match(/^(\w+): (\d+) execs/);
    if (m) results.push({ target: m[1], execs: Number(m[2]), engine: "stable seeded generator" });
  }
  return results;
}
