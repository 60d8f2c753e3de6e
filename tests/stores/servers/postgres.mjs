// A throwaway PostgreSQL on 127.0.0.1 at a free port: initdb into a fresh folder (trust auth,
// no fsync), then the postgres server itself, as the `postgres` user when we are root
// (PostgreSQL refuses to run as root). Stopped with SIGINT (fast shutdown) by pid.
import { execFile, spawnSync } from "node:child_process";
import { chownSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { requireBinary } from "./binaries.mjs";
import { withFreePorts } from "./ports.mjs";
import { startProcess, tempDir } from "./process.mjs";

/** uid/gid of the `postgres` system user when we are root; {} otherwise. */
function serverUser() {
  if (process.getuid?.() !== 0) return {};
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  if (!line) throw new Error("running as root, but there is no `postgres` user to run PostgreSQL as (apt-get install -y postgresql creates it)");
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

function isReady(bin, port) {
  return new Promise((resolve) => {
    execFile(join(bin, "pg_isready"), ["-q", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres"], (err) =>
      resolve(!err),
    );
  });
}

/**
 * @returns {Promise<{ port: number, connectionString: string, config: object, server: object,
 *   stop(): Promise<void> }>} `config` is a `pg` Pool/Client config.
 */
export async function startPostgres() {
  const bin = requireBinary("postgres");
  const user = serverUser();
  const env = { PATH: process.env.PATH, LC_ALL: "C", LANG: "C", HOME: "/tmp" };
  const dir = tempDir("postgres");
  const data = join(dir, "data");
  const sockets = join(dir, "sockets");
  mkdirSync(sockets);
  if (user.uid !== undefined) {
    chownSync(dir, user.uid, user.gid);
    chownSync(sockets, user.uid, user.gid);
  }
  const init = spawnSync(
    join(bin, "initdb"),
    ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
    { ...user, env, cwd: dir, encoding: "utf8" },
  );
  if (init.status !== 0) {
    throw new Error(`initdb failed (${init.status ?? init.signal}): ${init.error?.message ?? ""}\n${init.stdout}\n${init.stderr}`);
  }
  return withFreePorts(1, async (port) => {
    const server = await startProcess({
      name: `postgres :${port}`,
      cmd: join(bin, "postgres"),
      args: [
        "-D", data, "-k", sockets, "-h", "127.0.0.1", "-p", String(port),
        "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
        "-c", "max_connections=100", "-c", "log_min_messages=warning",
      ],
      dir,
      ...user,
      env,
      stopSignal: "SIGINT",
      ready: () => isReady(bin, port),
      timeoutMs: 30_000,
    });
    const config = { host: "127.0.0.1", port, user: "postgres", database: "postgres" };
    return {
      port,
      config,
      connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      server,
      stop: () => server.stop(),
    };
  });
}
