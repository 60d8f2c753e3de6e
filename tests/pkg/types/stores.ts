// The store adapters' declarations under strict: each adapter is a Store for LeaderElection,
// its replies and the fenced results narrow on their discriminants, and the clients the
// adapters take are the users' own (node-redis, pg, etcd3) or anything of the same shape.
import { Etcd3 } from "etcd3";
import pg from "pg";
import { createClient, createClientPool } from "redis";
import { createClient as createClientV4 } from "redis4";
import { LeaderElection } from "tenure";
import type { Store, StoreReply } from "tenure";
import { EtcdStore } from "tenure/etcd";
import type { EtcdStoreOptions } from "tenure/etcd";
import { PostgresFencedTable, PostgresStore } from "tenure/postgres";
import type { PgQueryable, StoreAdapterError } from "tenure/postgres";
import { RedisFencedResource, RedisStore } from "tenure/redis";
import type { FenceResult, FencedState, RedisCommandClient } from "tenure/redis";

declare const redisClient: RedisCommandClient;
declare const pgClient: PgQueryable;
declare const etcdClient: EtcdStoreOptions["client"];

async function main(): Promise<void> {
  const stores: Store[] = [
    new RedisStore({ client: redisClient, prefix: "svc:" }),
    new PostgresStore({ client: pgClient, table: "public.cluster_leadership" }),
    new EtcdStore({ client: etcdClient, prefix: "svc/", timeoutMs: 2_000 }),
  ];
  for (const store of stores) {
    const election = new LeaderElection({ store, key: "orders", ttlMs: 5_000 });
    await election.close();
  }
  const reply: StoreReply = await new RedisStore({ client: redisClient }).send({
    type: "Renew",
    key: "orders",
    holder: "a",
    session: "s",
    token: 1n,
    ttl_ms: 1_000,
  });
  if (reply.type === "Renewed") {
    const token: bigint = reply.token;
    void token;
  }
  const table = new PostgresFencedTable({ client: pgClient, key: "shard-1" });
  await table.migrate();
  const result: FenceResult = await table.write(3n, "value");
  if (!result.accepted) {
    const required: bigint = result.required;
    const reason: "stale fencing token" = result.reason;
    void [required, reason];
  }
  const state: FencedState = await new RedisFencedResource({ client: redisClient, key: "k" }).read();
  const highest: bigint = state.highestToken;
  const value: string | undefined = state.value;
  void [highest, value, table.table];
  try {
    await table.establish(4n);
  } catch (err) {
    const e = err as StoreAdapterError;
    const code: "ERR_STORE" | "ERR_FENCED_ROW_MISSING" = e.code;
    void code;
  }
}
void main;

// @ts-expect-error a fenced write takes a bigint token
void new RedisFencedResource({ client: redisClient, key: "k" }).write(1, "x");
// @ts-expect-error values are strings
void new PostgresFencedTable({ client: pgClient, key: "k" }).write(1n, { not: "a string" });
// @ts-expect-error the client is required
void new RedisStore({});

// The real clients fit as they are.

void new RedisStore({ client: createClient() });
void new RedisFencedResource({ client: createClient({ url: "redis://127.0.0.1:6379" }), key: "k" });
// node-redis v4's createClient() and v5's createClientPool() take a mutable array in
// sendCommand: RedisCommandClient once asked for a ReadonlyArray and refused both (TS2322).
void new RedisStore({ client: createClientV4() });
void new RedisFencedResource({ client: createClientV4({ url: "redis://127.0.0.1:6379" }), key: "k" });
void new RedisStore({ client: createClientPool() });
void new RedisFencedResource({ client: createClientPool({ url: "redis://127.0.0.1:6379" }), key: "k" });
void new EtcdStore({ client: new Etcd3({ hosts: "http://127.0.0.1:2379" }) });
// A namespace of the client: its keys go under the namespace (tests/stores/etcd.test.mjs).
void new EtcdStore({ client: new Etcd3({ hosts: "http://127.0.0.1:2379" }).namespace("app1/") });
void new PostgresStore({ client: new pg.Pool() });
void new PostgresFencedTable({ client: new pg.Client(), key: "k" });
