// One chaos contender: a Node process running LeaderElection against a real store, checking
// leadership every few ms and, while it leads, writing to the PostgreSQL fenced table (after
// establishing its token there first). It reports every check, write and event to the parent
// over IPC with a wall-clock time taken BEFORE the action, so a check's time is a moment at
// which it claimed leadership. A pause between the check and the write (gapMs) is where a
// SIGSTOP leaves a late write behind, the case the fence exists for.
import { LeaderElection } from "tenure";
import { openFencedTable, openStore } from "./stores.mjs";

const config = JSON.parse(process.env.TENURE_CHAOS);
const wall = () => performance.timeOrigin + performance.now();
const report = (event) => process.send?.({ ...event, node: config.nodeId });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const { store, close: closeStore } = await openStore(config.store);
const { fenced, close: closeFence } = await openFencedTable(config.fence.config, config.fence.key, config.fence.table);
const election = new LeaderElection({ store, key: config.key, nodeId: config.nodeId, ttlMs: config.ttlMs });
election.on("elected", ({ token }) => report({ kind: "elected", t: wall(), token: String(token) }));
election.on("lost", ({ token, reason }) => report({ kind: "lost", t: wall(), token: String(token), reason }));
election.on("error", (err) => report({ kind: "error", t: wall(), code: err.code, message: err.message.slice(0, 200) }));

let stopping = false;
let seq = 0;
const established = new Set();

process.on("message", async (message) => {
  if (message === "close") {
    stopping = true;
    const t = wall();
    await election.close({ timeoutMs: 1_000 });
    report({ kind: "closed", t, done: wall() });
    await Promise.all([closeStore(), closeFence()]);
    process.disconnect?.();
    process.exit(0);
  }
});

async function step() {
  const t = wall();
  let token;
  try {
    token = election.assertLeadership();
  } catch (err) {
    report({ kind: "check", t, ok: false, reason: err.reason ?? err.code });
    return;
  }
  report({ kind: "check", t, ok: true, token: String(token) });
  if (!established.has(token)) {
    // The new leader installs its generation at the resource and waits for the answer first.
    const result = await fenced.establish(token);
    report({ kind: "establish", t: wall(), token: String(token), accepted: result.accepted });
    if (!result.accepted) {
      election.reportFenced(result);
      return;
    }
    established.add(token);
  }
  await sleep(config.gapMs);
  seq += 1;
  const sent = wall();
  const result = await fenced.write(token, `${config.nodeId}#${seq}`);
  report({
    kind: "write",
    t: sent,
    token: String(token),
    value: `${config.nodeId}#${seq}`,
    accepted: result.accepted,
    required: result.accepted ? undefined : String(result.required),
  });
  if (!result.accepted) election.reportFenced(result);
}

report({ kind: "ready", t: wall(), pid: process.pid });
election.campaign().catch((err) => report({ kind: "error", t: wall(), code: "ERR_CAMPAIGN", message: err.message }));
while (!stopping) {
  await step().catch((err) => report({ kind: "error", t: wall(), code: err.code ?? "ERR_STEP", message: err.message }));
  await sleep(config.periodMs);
}
