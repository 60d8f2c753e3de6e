// Small process helpers shared by the build, start and test scripts (Node built-ins only,
// because they run before `npm ci` has installed anything).
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Absolute path of the repository root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Runs a command with inherited stdio in the repo root; throws if it fails. */
export function run(cmd, args, options = {}) {
  console.log(`$ ${[cmd, ...args].join(" ")}`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: "inherit", ...options });
  if (result.error) throw new Error(`${cmd} could not start: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} failed with exit code ${result.status ?? result.signal}`);
  }
}

/** Runs a command quietly and returns its trimmed stdout, or null if it fails to run or exits non-zero. */
export function capture(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, encoding: "utf8", ...options });
  if (result.error || result.status !== 0) return null;
  return result.stdout.trim();
}

/** Times `fn`, printing a header before and the seconds taken after; returns fn's result. */
export async function step(name, fn, timings) {
  console.log(`\n=== ${name}`);
  const start = performance.now();
  const result = await fn();
  const seconds = (performance.now() - start) / 1000;
  console.log(`=== ${name}: done in ${seconds.toFixed(1)} s`);
  timings?.push([name, seconds]);
  return result;
}
