// A store shared by child processes: the MemoryStore lives in this (the test) process and
// each child reaches it over IPC (advanced serialization, so bigint tokens cross intact).
// Children can be paused with SIGSTOP and resumed with SIGCONT, or killed, while the store
// keeps its own clock; see fixtures/election-child.mjs for the other end.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("../fixtures/election-child.mjs", import.meta.url));

export class Broker {
  constructor(store) {
    this.store = store;
    this.children = new Set();
  }

  /** Starts a child running `config` ({ role: "sampler" | "shards", nodeId, ... }). */
  spawn(config) {
    const proc = fork(CHILD, [JSON.stringify(config)], { serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let readyResolve;
    let reportResolve;
    let reportReject;
    const child = {
      nodeId: config.nodeId,
      proc,
      ready: new Promise((r) => (readyResolve = r)),
      stopped: false,
      stop() {
        child.stopped = true;
        proc.kill("SIGSTOP");
      },
      cont() {
        child.stopped = false;
        proc.kill("SIGCONT");
      },
      kill() {
        proc.kill("SIGKILL");
      },
      finish() {
        const report = new Promise((resolve, reject) => {
          reportResolve = resolve;
          reportReject = reject;
        });
        if (child.stopped) child.cont();
        proc.send({ kind: "finish" });
        return report;
      },
    };
    proc.on("message", (m) => {
      if (m.kind === "ready") readyResolve();
      else if (m.kind === "report") reportResolve(m);
      else if (m.kind === "send") {
        Promise.resolve()
          .then(() => this.store.send(m.request))
          .catch(() => undefined)
          .then((reply) => {
            if (proc.connected) proc.send({ kind: "reply", id: m.id, reply }, () => {});
          });
      }
    });
    proc.on("exit", (code, signal) => {
      this.children.delete(child);
      reportReject?.(new Error(`child ${config.nodeId} exited (${code ?? signal}) before reporting`));
    });
    this.children.add(child);
    return child;
  }

  async close() {
    for (const c of this.children) c.kill();
    await this.store.close();
  }
}
