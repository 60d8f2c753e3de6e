// Throwaway etcd servers on 127.0.0.1: one member, or a cluster of three whose members can be
// stopped and started again on their data folders (the majority-loss example).
import { requireBinary } from "./binaries.mjs";
import { freePort } from "./ports.mjs";
import { removeFolder, removeOnExit, startProcess, tempDir } from "./process.mjs";

async function healthy(clientUrl) {
  const res = await fetch(`${clientUrl}/health`, { signal: AbortSignal.timeout(1_000) });
  if (!res.ok) return false;
  const body = await res.json();
  return body.health === "true" || body.health === true;
}

/** Member flags; the same ones start a member the first time and again on its data folder. */
function memberArgs(member, initialCluster, clusterToken, timing) {
  return [
    "--name", member.name,
    "--data-dir", member.dataDir,
    "--listen-client-urls", member.clientUrl,
    "--advertise-client-urls", member.clientUrl,
    "--listen-peer-urls", member.peerUrl,
    "--initial-advertise-peer-urls", member.peerUrl,
    "--initial-cluster", initialCluster,
    "--initial-cluster-state", "new",
    "--initial-cluster-token", clusterToken,
    "--heartbeat-interval", String(timing.heartbeatMs),
    "--election-timeout", String(timing.electionMs),
    "--log-level", "warn",
    "--logger", "zap",
  ];
}

async function launch(bin, member, initialCluster, clusterToken, timing, waitHealthy) {
  return startProcess({
    name: `etcd ${member.name} :${member.clientPort}`,
    cmd: bin,
    args: memberArgs(member, initialCluster, clusterToken, timing),
    dir: member.dataDir,
    cwd: member.root,
    keepDir: true,
    // A member of a cluster is not healthy until it has a quorum: when it is started alone,
    // "ready" is its client port answering at all.
    ready: waitHealthy
      ? () => healthy(member.clientUrl)
      : () => fetch(`${member.clientUrl}/version`, { signal: AbortSignal.timeout(1_000) }).then((r) => r.ok),
    timeoutMs: 30_000,
  });
}

/**
 * A cluster of `size` members (1 for a single server). etcd's shortest lease ttl is 1.5 x the
 * election timeout, rounded up to whole seconds: 1 s for one member (election 500 ms, it never
 * needs one), 2 s for a cluster (election 1000 ms, steady on a busy two-core machine).
 * @returns {Promise<{ hosts: string[], members: Array<{ name: string, clientUrl: string,
 *   stop(): Promise<void>, start(): Promise<void>, running: boolean }>, stop(): Promise<void> }>}
 */
export async function startEtcdCluster(size = 3) {
  const bin = requireBinary("etcd");
  const timing = size === 1 ? { heartbeatMs: 50, electionMs: 500 } : { heartbeatMs: 100, electionMs: 1000 };
  const root = tempDir("etcd");
  removeOnExit(root);
  const token = `tenure-${process.pid}-${Date.now()}`;
  const members = [];
  for (let i = 0; i < size; i++) {
    const clientPort = await freePort();
    let peerPort = await freePort();
    while (peerPort === clientPort) peerPort = await freePort();
    members.push({
      name: `m${i + 1}`,
      clientPort,
      clientUrl: `http://127.0.0.1:${clientPort}`,
      peerUrl: `http://127.0.0.1:${peerPort}`,
      dataDir: `${root}/m${i + 1}`,
      root,
      process: undefined,
    });
  }
  const initialCluster = members.map((m) => `${m.name}=${m.peerUrl}`).join(",");
  const handles = members.map((m) => ({
    name: m.name,
    clientUrl: m.clientUrl,
    get running() {
      return m.process?.running ?? false;
    },
    get pid() {
      return m.process?.pid;
    },
    /** Stops this member by pid (SIGTERM, or `signal`), keeping its data folder. */
    async stop({ signal = "SIGTERM" } = {}) {
      await m.process?.stop({ removeDir: false, signal });
      m.process = undefined;
    },
    /** Starts this member again on its data folder. */
    async start({ waitHealthy = false } = {}) {
      if (m.process?.running) return;
      m.process = await launch(bin, m, initialCluster, token, timing, waitHealthy);
    },
    signal(sig) {
      m.process?.signal(sig);
    },
  }));
  try {
    await Promise.all(handles.map((h) => h.start()));
    const deadline = performance.now() + 30_000;
    while (!(await Promise.all(members.map((m) => healthy(m.clientUrl).catch(() => false)))).every(Boolean)) {
      if (performance.now() > deadline) throw new Error(`etcd cluster not healthy after 30 s:\n${members.map((m) => m.process?.output()).join("\n")}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (err) {
    await Promise.all(handles.map((h) => h.stop({ signal: "SIGKILL" })));
    removeFolder(root);
    throw err;
  }
  return {
    hosts: members.map((m) => m.clientUrl),
    members: handles,
    /** Tears the whole cluster down (SIGKILL: nothing in it is kept). */
    async stop() {
      await Promise.all(handles.map((h) => h.stop({ signal: "SIGKILL" })));
      removeFolder(root);
    },
  };
}

/** One etcd server. @returns {Promise<{ url: string, hosts: string[], stop(): Promise<void> }>} */
export async function startEtcd() {
  const cluster = await startEtcdCluster(1);
  return { url: cluster.hosts[0], hosts: cluster.hosts, cluster, stop: () => cluster.stop() };
}
