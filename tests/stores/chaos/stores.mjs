// Makes a store adapter and its client from a plain description, in any process: the chaos
// contenders, the etcd cluster example and the benchmark all build stores this way.
import { Etcd3 } from "etcd3";
import pg from "pg";
import { createClient } from "redis";
import { EtcdStore } from "tenure/etcd";
import { PostgresFencedTable, PostgresStore } from "tenure/postgres";
import { RedisStore } from "tenure/redis";

/**
 * @param {{ kind: "redis" | "postgres" | "etcd", url?: string, config?: object, hosts?: string[],
 *   table?: string, timeoutMs?: number }} spec
 * @returns {Promise<{ store: object, close(): Promise<void> }>}
 */
export async function openStore(spec) {
  if (spec.kind === "redis") {
    const client = createClient({ url: spec.url, disableOfflineQueue: true });
    client.on("error", () => {});
    await client.connect();
    const store = new RedisStore({ client });
    await store.migrate();
    return { store, close: () => client.quit().catch(() => {}) };
  }
  if (spec.kind === "postgres") {
    const client = new pg.Pool({ ...spec.config, max: 4, connectionTimeoutMillis: 2_000 });
    client.on("error", () => {});
    const store = new PostgresStore({ client, table: spec.table });
    await store.migrate();
    return { store, close: () => client.end().catch(() => {}) };
  }
  if (spec.kind === "etcd") {
    const client = new Etcd3({ hosts: spec.hosts });
    const store = new EtcdStore({ client, timeoutMs: spec.timeoutMs ?? 2_000 });
    return { store, close: async () => client.close() };
  }
  throw new Error(`unknown store kind ${spec.kind}`);
}

/** The PostgreSQL fenced table every leader writes to, and its own pool. */
export async function openFencedTable(config, key, table) {
  const client = new pg.Pool({ ...config, max: 2, connectionTimeoutMillis: 2_000 });
  client.on("error", () => {});
  const fenced = new PostgresFencedTable({ client, key, table });
  return { fenced, client, close: () => client.end().catch(() => {}) };
}

/**
 * Creates the fenced table, its row, and an audit table filled by a trigger with every
 * accepted change (a write changes the value; an establish only the token), in commit order.
 */
export async function createAuditedFence(pool, key, table) {
  const fenced = new PostgresFencedTable({ client: pool, key, table });
  await fenced.migrate();
  await pool.query(`CREATE TABLE IF NOT EXISTS ${table}_audit (
    seq bigserial PRIMARY KEY, kind text NOT NULL, token numeric NOT NULL, value text,
    at timestamptz NOT NULL DEFAULT clock_timestamp())`);
  await pool.query(`CREATE OR REPLACE FUNCTION ${table}_audit_row() RETURNS trigger AS $$
    BEGIN
      INSERT INTO ${table}_audit (kind, token, value) VALUES (
        CASE WHEN NEW.value IS DISTINCT FROM OLD.value THEN 'write' ELSE 'establish' END,
        NEW.fencing_token, NEW.value);
      RETURN NEW;
    END $$ LANGUAGE plpgsql`);
  await pool.query(`DROP TRIGGER IF EXISTS ${table}_audit ON ${table}`);
  await pool.query(`CREATE TRIGGER ${table}_audit AFTER UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_audit_row()`);
  return fenced;
}

/** The audit rows in commit order: { seq, kind, token (bigint), value }. */
export async function readAudit(pool, table) {
  // ORDER BY the column, not the text output of the same name (that sorts "10" before "2")
  const { rows } = await pool.query(`SELECT a.seq::text AS seq, a.kind, a.token::text AS token, a.value FROM ${table}_audit a ORDER BY a.seq`);
  return rows.map((r) => ({ seq: Number(r.seq), kind: r.kind, token: BigInt(r.token), value: r.value }));
}
