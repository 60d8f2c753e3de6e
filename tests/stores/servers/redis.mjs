// A throwaway redis-server on 127.0.0.1 at a free port, nothing persisted.
import { connect } from "node:net";
import { requireBinary } from "./binaries.mjs";
import { withFreePorts } from "./ports.mjs";
import { startProcess, tempDir } from "./process.mjs";

/** Sends PING over a raw socket; true on +PONG. */
function ping(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
  });
}

/**
 * `cluster: true`: a one-node Redis Cluster (cluster mode on, its bus at a second free port; the
 * caller assigns the slots with CLUSTER ADDSLOTSRANGE).
 * @returns {Promise<{ port: number, url: string, server: object, stop(): Promise<void> }>}
 */
export async function startRedis({ cluster = false } = {}) {
  const bin = requireBinary("redis");
  return withFreePorts(cluster ? 2 : 1, async (port, busPort) => {
    const dir = tempDir("redis");
    const clusterArgs = cluster ? ["--cluster-enabled", "yes", "--cluster-port", String(busPort), "--cluster-config-file", `${dir}/nodes.conf`] : [];
    const server = await startProcess({
      name: `redis-server :${port}${cluster ? " (cluster)" : ""}`,
      cmd: bin,
      args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir, ...clusterArgs],
      dir,
      ready: () => ping(port),
    });
    return { port, url: `redis://127.0.0.1:${port}`, server, stop: () => server.stop() };
  });
}
