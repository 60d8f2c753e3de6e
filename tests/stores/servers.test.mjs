// The servers the tests start are stopped by pid however the test process ends: after a
// failing test (exit hook), and when the process itself is SIGKILLed (the reaper). Their
// throwaway folders go with them.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readlinkSync } from "node:fs";
import { test } from "node:test";
import { sleep } from "./helpers.mjs";

const SERVERS = new URL("./servers/index.mjs", import.meta.url).href;
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Starts `body` in a child that prints its servers' pids and folders, and returns them. */
function child(body) {
  const code = `import { startEtcdCluster, startPostgres, startRedis } from ${JSON.stringify(SERVERS)};
const redis = await startRedis();
const cluster = await startEtcdCluster(3);
const postgres = await startPostgres();
console.log(JSON.stringify({ pids: [redis.server.pid, postgres.server.pid, ...cluster.members.map((m) => m.pid)] }));
${body}`;
  const proc = spawn(process.execPath, ["--input-type=module", "-e", code], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stderr.on("data", (d) => (out += d));
  const started = new Promise((resolve, reject) => {
    proc.stdout.on("data", (d) => resolve(JSON.parse(String(d))));
    proc.once("exit", (c) => reject(new Error(`child exited ${c} before starting its servers:\n${out}`)));
  });
  const exited = new Promise((resolve) => proc.once("exit", (c, s) => resolve({ code: c, signal: s })));
  return { proc, started, exited };
}

async function gone(pids, ms = 8_000) {
  const deadline = performance.now() + ms;
  while (pids.some(alive) && performance.now() < deadline) await sleep(50);
  return pids.filter(alive);
}

test("servers_are_stopped_by_pid_when_the_test_process_fails", { timeout: 60_000 }, async () => {
  const { started, exited } = child(`throw new Error("a failing test");`);
  const { pids } = await started;
  assert.equal(pids.length, 5);
  assert.equal((await exited).code, 1);
  assert.deepEqual(await gone(pids), [], "every server is gone");
});

test("servers_are_reaped_when_the_test_process_is_sigkilled", { timeout: 60_000 }, async () => {
  const { proc, started, exited } = child(`setInterval(() => {}, 1000);`);
  const { pids } = await started;
  assert.ok(pids.every(alive));
  proc.kill("SIGKILL");
  await exited;
  assert.deepEqual(await gone(pids), [], "the reaper killed every server");
});

test("a_stopped_server_leaves_no_folder", { timeout: 30_000 }, async () => {
  const { startRedis } = await import(SERVERS);
  const redis = await startRedis();
  const dir = readlinkSync(`/proc/${redis.server.pid}/cwd`); // redis-server runs in its folder
  assert.ok(existsSync(dir), dir);
  await redis.stop();
  assert.equal(alive(redis.server.pid), false);
  assert.equal(existsSync(dir), false, `${dir} removed`);
});
