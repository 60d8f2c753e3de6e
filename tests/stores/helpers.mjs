// Shared by the real-server store tests: servers tied to node:test's lifecycle, connected
// clients that are closed again, and small waiting helpers.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { inspect } from "node:util";
import { Etcd3 } from "etcd3";
import pg from "pg";
import { createClient } from "redis";
import { startEtcd, startPostgres, startRedis } from "./servers/index.mjs";

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a server before the file's tests and stops it after them, failing or not.
 * Returns a getter (the server exists only once `before` ran).
 */
export function useServer(start) {
  let server;
  before(async () => {
    server = await start();
  });
  after(async () => {
    await server?.stop();
  });
  return () => server;
}

const closers = [];
after(async () => {
  // Bounded: a client whose server a test stopped must not hold the file open.
  const bounded = (close) => Promise.race([Promise.resolve().then(close).catch(() => {}), sleep(2_000)]);
  for (const close of closers.splice(0).reverse()) await bounded(close);
});

/**
 * Runs `close` after the file's tests, before its servers stop (this module's `after` hook is
 * registered first), bounded and with its errors ignored.
 */
export function closeAfter(close) {
  closers.push(close);
}

/**
 * A connected node-redis client, closed after the file's tests. `disableOfflineQueue`: while
 * disconnected, commands fail at once instead of waiting in node-redis's queue (what the
 * README recommends for a lease store).
 */
export async function redisClient(server, options = {}) {
  const client = createClient({ url: server.url, disableOfflineQueue: true, ...options });
  client.on("error", () => {}); // reconnect noise while a test stops the server
  await client.connect();
  closers.push(() => (client.isOpen ? client.quit() : undefined));
  return client;
}

/** A `pg` Pool, ended after the file's tests. */
export function pgPool(server, options = {}) {
  const pool = new pg.Pool({ ...server.config, max: 10, ...options });
  pool.on("error", () => {});
  closers.push(() => pool.end());
  return pool;
}

/** An Etcd3 client, closed after the file's tests. */
export function etcdClient(hosts, options = {}) {
  const client = new Etcd3({ hosts, ...options });
  closers.push(async () => client.close());
  return client;
}

export { startEtcd, startPostgres, startRedis };

/** A unique key per call, so the tests of one file never share a lease. */
let keys = 0;
export function freshKey(prefix = "k") {
  keys += 1;
  return `${prefix}-${process.pid}-${keys}`;
}

/** A message-friendly rendering of anything (bigints included). */
export const show = (value) => inspect(value, { depth: 6, breakLength: 120 });

/**
 * A store's requests with a lone UTF-16 surrogate in key, holder or session are refused
 * (ERR_STORE_REQUEST) before the server sees them: stored as UTF-8 they would become U+FFFD,
 * and "k\uD800" and "k\uDBFF" would be one lease. Two keys that differ in a surrogate pair
 * (a well-formed character outside the BMP) are two leases on the real server.
 */
export async function assertLoneSurrogatesRefused(store, name) {
  const key = freshKey("lone");
  for (const field of ["key", "holder", "session"]) {
    const request = { type: "Acquire", key, holder: "a", session: "s", ttl_ms: 2_000, [field]: `${field}\uD800` };
    await assert.rejects(store.send(request), (err) => {
      assert.ok(err instanceof RangeError, String(err));
      assert.equal(err.code, "ERR_STORE_REQUEST");
      assert.match(err.message, new RegExp(`^${name}\\.send: request\\.${field} "${field}\\\\ud800" is not well-formed Unicode: it has a lone UTF-16 surrogate, \\\\uD800 at index ${field.length}, which UTF-8 cannot encode`));
      return true;
    });
  }
  const first = await store.send({ type: "Acquire", key: `${key}\u{1F600}`, holder: "a", session: "s", ttl_ms: 2_000 });
  const second = await store.send({ type: "Acquire", key: `${key}\u{1F601}`, holder: "b", session: "s", ttl_ms: 2_000 });
  assert.deepEqual([first.type, second.type], ["Granted", "Granted"], `two keys, two leases: ${show([first, second])}`);
}
