// The reaper: a tiny watchdog process that outlives a test process killed with SIGKILL.
// The parent writes one line per event on our stdin: `add <pid> <dir>` when it starts a
// server, `del <pid>` when it stopped it, `dir 0 <dir>` / `undir 0 <dir>` for a folder alone. When stdin closes (the parent exited, however it
// died) every server still listed is killed by pid and its throwaway folder removed.
import { rmSync } from "node:fs";
import { createInterface } from "node:readline";

const live = new Map();
const dirs = new Set();
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const [verb, pid, ...rest] = line.split(" ");
  if (verb === "add") live.set(Number(pid), rest.join(" "));
  else if (verb === "del") live.delete(Number(pid));
  else if (verb === "dir") dirs.add(rest.join(" "));
  else if (verb === "undir") dirs.delete(rest.join(" "));
});
lines.on("close", () => {
  for (const [pid, dir] of live) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
    if (dir) {
      // A server may still hold files open for a moment after SIGKILL.
      setTimeout(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }), 200);
    }
  }
  setTimeout(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }, 300);
});
