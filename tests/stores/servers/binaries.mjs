// Where the store servers' binaries are. `npm test` installs missing ones first
// (scripts/lib/ensure.mjs, ensureStoreServers); a test run without them fails with the
// command that installs them, it is never skipped.
import { existsSync, readdirSync } from "node:fs";

const PG_ROOT = "/usr/lib/postgresql";

function postgresBin() {
  const versions = existsSync(PG_ROOT)
    ? readdirSync(PG_ROOT).filter((v) => existsSync(`${PG_ROOT}/${v}/bin/postgres`)).sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length ? `${PG_ROOT}/${versions[0]}/bin` : undefined;
}

const FIND = {
  redis: () => ["/usr/bin/redis-server"].find(existsSync),
  postgres: postgresBin,
  etcd: () => ["/usr/bin/etcd"].find(existsSync),
};
const PACKAGE = { redis: "redis-server", postgres: "postgresql", etcd: "etcd-server" };

/** Path of the server binary (for postgres: its bin folder), or undefined. */
export function findBinary(server) {
  return FIND[server]();
}

/** Path of the server binary, or throws saying how to install it. */
export function requireBinary(server) {
  const found = findBinary(server);
  if (!found) {
    throw new Error(
      `${server} is not installed. \`npm test\` installs it (Debian package ${PACKAGE[server]}); ` +
        `by hand: apt-get install -y ${PACKAGE[server]}`,
    );
  }
  return found;
}

export const SERVER_PACKAGES = PACKAGE;
