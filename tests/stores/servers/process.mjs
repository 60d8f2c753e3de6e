// Starts a server process that the tests own: spawned by pid, its output kept for error
// messages, waited for until ready, and stopped by pid at the end, also when a test fails:
// `after()` hooks call stop(), a process `exit` hook SIGKILLs whatever is left, and a reaper
// process (reaper.mjs) does the same if this process itself is killed with SIGKILL.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const running = new Set();
let reaper;

function reaperLine(line) {
  if (!reaper) {
    reaper = spawn(process.execPath, [new URL("./reaper.mjs", import.meta.url).pathname], {
      stdio: ["pipe", "ignore", "inherit"],
      detached: true,
    });
    reaper.unref();
    reaper.stdin.on("error", () => {});
    // The pipe must not keep this process alive either.
    reaper.stdin.unref();
  }
  reaper.stdin.write(`${line}\n`);
}

const folders = new Set();

process.on("exit", () => {
  for (const server of running) server.killNow();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** Removes `dir` when this process exits (or is killed), unless `forgetFolder(dir)` came first. */
export function removeOnExit(dir) {
  folders.add(dir);
  reaperLine(`dir 0 ${dir}`);
}

/** Removes `dir` now and forgets it. */
export function removeFolder(dir) {
  rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  folders.delete(dir);
  reaperLine(`undir 0 ${dir}`);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.once(signal, () => {
    for (const server of running) server.killNow();
    process.exit(128 + (signal === "SIGINT" ? 2 : signal === "SIGTERM" ? 15 : 1));
  });
}

/** A fresh throwaway folder under the system temp directory. */
export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), `tenure-${prefix}-`));
}

/**
 * Spawns `cmd args` and returns a handle once `ready()` resolves true.
 * @param {object} o
 * @param {string} o.name a label for messages ("redis :6380")
 * @param {string} o.cmd
 * @param {string[]} o.args
 * @param {() => Promise<boolean>} o.ready polled every 50 ms until true
 * @param {string} [o.dir] the throwaway folder, removed by stop()
 * @param {boolean} [o.keepDir] stop() leaves the folder (a member that will be restarted)
 * @param {string} [o.stopSignal] what stop() sends first (SIGTERM)
 * @param {number} [o.uid] @param {number} [o.gid] run as this user (root only)
 * @param {number} [o.timeoutMs] how long to wait for readiness (20 s)
 */
export async function startProcess(o) {
  const child = spawn(o.cmd, o.args, {
    stdio: ["ignore", "pipe", "pipe"],
    uid: o.uid,
    gid: o.gid,
    cwd: o.cwd ?? o.dir,
    env: o.env ?? process.env,
  });
  let output = "";
  const keep = (chunk) => {
    output = (output + chunk).slice(-8000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let gone = false;
  let spawnError;
  child.once("error", (err) => {
    spawnError = err;
  });
  exited.then(() => {
    gone = true;
  });

  const handle = {
    name: o.name,
    get pid() {
      return child.pid;
    },
    get exited() {
      return exited;
    },
    get running() {
      return !gone;
    },
    output: () => output,
    /** Sends a signal by pid (SIGSTOP/SIGCONT for chaos). */
    signal(sig) {
      if (!gone) process.kill(child.pid, sig);
    },
    killNow() {
      if (!gone && child.pid) {
        try {
          process.kill(child.pid, "SIGCONT");
          process.kill(child.pid, "SIGKILL");
        } catch {
          // gone meanwhile
        }
      }
      if (o.dir && !o.keepDir) rmSync(o.dir, { recursive: true, force: true });
    },
    /** Stops by pid: `signal` (stopSignal), then SIGKILL after 5 s; removes the folder unless keepDir. */
    async stop({ removeDir = !o.keepDir, signal = o.stopSignal ?? "SIGTERM" } = {}) {
      running.delete(handle);
      if (!gone) {
        try {
          process.kill(child.pid, "SIGCONT");
          process.kill(child.pid, signal);
        } catch {
          // gone meanwhile
        }
        const timer = setTimeout(() => {
          if (!gone) process.kill(child.pid, "SIGKILL");
        }, 5_000);
        await exited;
        clearTimeout(timer);
      }
      if (child.pid) reaperLine(`del ${child.pid}`);
      if (o.dir && removeDir) rmSync(o.dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
  running.add(handle);
  await new Promise((resolve) => setImmediate(resolve));
  if (spawnError || !child.pid) {
    running.delete(handle);
    throw new Error(`${o.name}: could not start ${o.cmd}: ${spawnError?.message ?? "no pid"}`);
  }
  reaperLine(`add ${child.pid} ${o.keepDir ? "" : (o.dir ?? "")}`);

  const deadline = performance.now() + (o.timeoutMs ?? 20_000);
  for (;;) {
    if (gone) {
      await handle.stop();
      const { code, signal } = await exited;
      throw new Error(`${o.name} exited before it was ready (code ${code}, signal ${signal}):\n${output}`);
    }
    if (await o.ready().catch(() => false)) return handle;
    if (performance.now() > deadline) {
      await handle.stop();
      throw new Error(`${o.name} was not ready after ${o.timeoutMs ?? 20_000} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
