// Real-process chaos: three contender processes (contender.mjs) against one real store;
// rounds of SIGSTOP of the leader past its ttl, then SIGCONT; then a graceful close of the
// leader. Every leader writes to a real PostgreSQL fenced table whose trigger keeps an audit
// of accepted changes. The run returns what a test asserts and what the benchmark prints.
import { fork } from "node:child_process";
import pg from "pg";
import { createAuditedFence, readAudit } from "./stores.mjs";

const wall = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const CONTENDER = new URL("./contender.mjs", import.meta.url).pathname;

const children = new Set();
process.on("exit", () => {
  for (const child of children) {
    try {
      process.kill(child.pid, "SIGCONT");
      process.kill(child.pid, "SIGKILL");
    } catch {
      // gone
    }
  }
});

/** Kills every contender still running (an `after` hook calls it; so does process exit). */
export async function killContenders() {
  const exits = [...children].map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", resolve))));
  for (const child of children) {
    try {
      process.kill(child.pid, "SIGCONT");
      process.kill(child.pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  await Promise.all(exits);
  children.clear();
}

/**
 * @param {object} o
 * @param {object} o.store the store spec for openStore (kind and connection)
 * @param {object} o.postgres the PostgreSQL server's pg config (the fenced table lives there)
 * @param {string} o.name a label, also the fenced table's name suffix
 * @param {number} [o.ttlMs] 1000
 * @param {number} [o.rounds] 4
 * @param {(line: string) => void} [o.log]
 */
export async function runChaos(o) {
  const ttlMs = o.ttlMs ?? 1_000;
  const rounds = o.rounds ?? 4;
  const log = o.log ?? (() => {});
  const key = `chaos-${o.name}`;
  const table = `chaos_${o.name}`;
  const pool = new pg.Pool({ ...o.postgres, max: 2 });
  pool.on("error", () => {});
  const events = [];
  const procs = new Map();
  const rows = [];
  try {
    await createAuditedFence(pool, key, table);
    for (const nodeId of ["c1", "c2", "c3"]) {
      const child = fork(CONTENDER, [], {
        env: {
          ...process.env,
          TENURE_CHAOS: JSON.stringify({
            nodeId,
            key,
            ttlMs,
            periodMs: 20,
            gapMs: 15,
            store: o.store,
            fence: { config: o.postgres, key, table },
          }),
        },
        execArgv: ["--unhandled-rejections=strict"],
        stdio: ["ignore", "inherit", "pipe", "ipc"],
      });
      children.add(child);
      // The child's stderr is passed on and its tail kept, so an exit names its cause.
      let stderr = "";
      child.stderr.on("data", (chunk) => {
        process.stderr.write(chunk);
        stderr = (stderr + chunk).slice(-2_000);
      });
      child.on("message", (event) => events.push(event));
      child.once("exit", (code, signal) => {
        events.push({ kind: "exit", node: nodeId, t: wall(), code, signal, stderr });
        children.delete(child);
      });
      procs.set(nodeId, child);
    }
    await until(() => ["c1", "c2", "c3"].every((n) => events.some((e) => e.node === n && e.kind === "ready")), 20_000, "contenders ready", events);

    for (let round = 1; round <= rounds; round++) {
      // A leader that has been writing for a while.
      const leader = await until(() => currentLeader(events, 3), 15_000, `round ${round}: a leader writing`, events);
      const stopAt = wall();
      signal(procs, leader.node, "SIGSTOP", events);
      const next = await until(
        () => events.find((e) => e.kind === "elected" && e.node !== leader.node && e.t > stopAt),
        ttlMs * 10 + 10_000,
        `round ${round}: a new leader after SIGSTOP of ${leader.node}`,
        events,
      );
      // Past the stopped leader's ttl, and the new leader has written.
      await until(() => wall() > stopAt + ttlMs * 1.5 && writesBy(events, next.node, next.token) >= 2, 15_000, `round ${round}: the new leader writes`, events);
      const resumeAt = wall();
      signal(procs, leader.node, "SIGCONT", events);
      const firstCheck = await until(
        () => events.find((e) => e.kind === "check" && e.node === leader.node && e.t >= resumeAt),
        5_000,
        `round ${round}: the resumed ${leader.node} checks`,
        events,
      );
      const row = {
        round,
        stopped: leader.node,
        oldToken: BigInt(leader.token),
        newLeader: next.node,
        newToken: BigInt(next.token),
        failoverMs: next.t - stopAt,
        pausedMs: resumeAt - stopAt,
        resumedFirstCheck: firstCheck,
      };
      rows.push(row);
      log(
        `round ${round}: SIGSTOP ${leader.node} (#${leader.token}) -> ${next.node} elected #${next.token} after ` +
          `${row.failoverMs.toFixed(0)} ms; SIGCONT after ${row.pausedMs.toFixed(0)} ms; first check ${firstCheck.ok ? "PASSED" : `refused (${firstCheck.reason})`}`,
      );
      await sleep(200);
    }

    // The graceful end: the leader closes (drains, releases); the next one takes over at once.
    const leader = await until(() => currentLeader(events, 2), 15_000, "a leader before the graceful release", events);
    const closeAt = wall();
    procs.get(leader.node).send("close");
    const next = await until(
      () => events.find((e) => e.kind === "elected" && e.node !== leader.node && e.t > closeAt),
      ttlMs * 5 + 5_000,
      "a new leader after the graceful release",
      events,
    );
    const handoverMs = next.t - closeAt;
    log(`graceful: ${leader.node} closed -> ${next.node} elected #${next.token} after ${handoverMs.toFixed(0)} ms`);
    await until(() => writesBy(events, next.node, next.token) >= 2, 10_000, "the last leader writes", events);
    for (const [node, child] of procs) if (node !== leader.node && child.connected) child.send("close");
    await until(() => events.filter((e) => e.kind === "exit").length === 3, 15_000, "contenders exit", events);

    const audit = await readAudit(pool, table);
    return analyse({ events, audit, rows, handoverMs, ttlMs });
  } finally {
    await killContenders();
    await pool.end().catch(() => {});
  }
}

/**
 * Sends `sig` to a contender. A contender that exited before it was told to close is a failure
 * of the run itself: it is reported with its exit code, signal and the tail of its stderr,
 * rather than as the `kill ESRCH` that signalling a gone process throws.
 */
function signal(procs, node, sig, events) {
  const gone = events.find((e) => e.kind === "exit" && e.node === node);
  if (gone) {
    throw new Error(`chaos: contender ${node} exited (code ${gone.code}, signal ${gone.signal}) before ${sig}; its stderr ended:\n${gone.stderr || "(nothing)"}`);
  }
  process.kill(procs.get(node).pid, sig);
}

/** The node leading now with at least `writes` accepted writes under its current token. */
function currentLeader(events, writes) {
  const latest = new Map();
  for (const e of events) if (e.kind === "elected" || e.kind === "lost") latest.set(e.node, e);
  for (const e of latest.values()) {
    if (e.kind === "elected" && writesBy(events, e.node, e.token) >= writes) return e;
  }
  return undefined;
}

function writesBy(events, node, token) {
  return events.filter((e) => e.kind === "write" && e.node === node && e.token === token && e.accepted).length;
}

async function until(probe, timeoutMs, what, events) {
  const deadline = wall() + timeoutMs;
  for (;;) {
    const got = probe();
    if (got) return got;
    if (wall() > deadline) {
      const tail = events.slice(-25).map((e) => JSON.stringify(e)).join("\n  ");
      throw new Error(`chaos: timed out waiting for ${what} (${timeoutMs} ms). Last events:\n  ${tail}`);
    }
    await sleep(10);
  }
}

/** What the run shows: the safety counts the test asserts and the figures the bench prints. */
export function analyse({ events, audit, rows, handoverMs, ttlMs }) {
  // Leadership windows: from the first to the last passing check of each (node, token).
  const windows = new Map();
  for (const e of events) {
    if (e.kind !== "check" || !e.ok) continue;
    const id = `${e.node}#${e.token}`;
    const w = windows.get(id) ?? { node: e.node, token: e.token, first: e.t, last: e.t };
    w.first = Math.min(w.first, e.t);
    w.last = Math.max(w.last, e.t);
    windows.set(id, w);
  }
  const list = [...windows.values()];
  const overlaps = [];
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) {
      const [a, b] = [list[i], list[j]];
      if (a.node !== b.node && a.first <= b.last && b.first <= a.last) overlaps.push([a, b]);
    }
  }
  // Stale writes accepted: an accepted change whose token is below one accepted before it.
  let highest = 0n;
  const stale = [];
  for (const row of audit) {
    if (row.token < highest) stale.push(row);
    if (row.token > highest) highest = row.token;
  }
  const writes = events.filter((e) => e.kind === "write");
  const accepted = writes.filter((e) => e.accepted);
  const auditedWrites = new Set(audit.filter((r) => r.kind === "write").map((r) => r.value));
  const failovers = rows.map((r) => r.failoverMs).sort((a, b) => a - b);
  return {
    ttlMs,
    rounds: rows,
    handoverMs,
    windows: list.length,
    overlaps,
    staleAccepted: stale,
    acceptedWrites: accepted.length,
    refusedWrites: writes.filter((e) => !e.accepted).length,
    unauditedAccepted: accepted.filter((e) => !auditedWrites.has(e.value)).length,
    auditedWrites: auditedWrites.size,
    resumedChecksPassed: rows.filter((r) => r.resumedFirstCheck.ok).length,
    errors: events.filter((e) => e.kind === "error").length,
    failoverMs: { min: failovers[0], median: median(failovers), max: failovers.at(-1) },
    events,
  };
}

function median(sorted) {
  if (sorted.length === 0) return undefined;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
