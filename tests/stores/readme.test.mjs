// The README's "Use it in a service" examples run as written against real servers: each one
// elects itself, makes its fenced write, and on SIGTERM closes (releasing the lease) and
// exits by itself. Each is at most ten lines of code besides its imports.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { EtcdStore } from "tenure/etcd";
import { PostgresFencedTable, PostgresStore } from "tenure/postgres";
import { RedisFencedResource, RedisStore } from "tenure/redis";
import { root } from "../../scripts/lib/run.mjs";
import { etcdClient, pgPool, redisClient, sleep, startEtcd, startPostgres, startRedis, useServer } from "./helpers.mjs";

const readme = readFileSync(join(root, "pkg", "README.md"), "utf8");
const section = readme.slice(readme.indexOf("## Use it in a service"), readme.indexOf("## The store contract"));
const blocks = [...section.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
const STORE_CLASS = { redis: "new RedisStore(", postgres: "new PostgresStore(", etcd: "new EtcdStore(" };
const example = (store) => blocks.find((code) => code.includes(STORE_CLASS[store]));

const redis = useServer(startRedis);
const postgres = useServer(startPostgres);
const etcd = useServer(startEtcd);

test("readme_service_examples_are_whole_and_short", () => {
  assert.equal(blocks.length, 3);
  for (const code of blocks) {
    const lines = code.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("import"));
    assert.ok(lines.length <= 10, `${lines.length} lines:\n${code}`);
    for (const step of ["new LeaderElection({", "withLeadership", ".write(token", "SIGTERM", "close()"]) assert.ok(code.includes(step), `${step} in\n${code}`);
  }
});

/** Starts an example and waits until its fenced write lands: `{ child, output(), exited }`. */
async function startExample(code, env, written) {
  const child = spawn(process.execPath, ["--input-type=module", "--unhandled-rejections=strict", "-e", code], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  try {
    const deadline = performance.now() + 15_000;
    while (!(await written())) {
      assert.equal(child.exitCode, null, `the example exited early:\n${output}`);
      assert.ok(performance.now() < deadline, `no fenced write within 15 s:\n${output}`);
      await sleep(50);
    }
  } catch (err) {
    if (child.exitCode === null) child.kill("SIGKILL");
    throw err;
  }
  return { child, output: () => output, exited };
}

/** Runs an example until its fenced write lands, then SIGTERMs it: it must exit 0 by itself. */
async function runExample(code, env, written) {
  const { child, output, exited } = await startExample(code, env, written);
  try {
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const status = await exited;
    clearTimeout(timer);
    assert.deepEqual(status, { code: 0, signal: null }, `after SIGTERM the example should exit by itself:\n${output()}`);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}

const next = (key) => ({ type: "Acquire", key, holder: "next-node", session: "next-session", ttl_ms: 10_000 });

test("readme_redis_example_runs_and_hands_over_on_sigterm", async () => {
  const client = await redisClient(redis());
  const orders = new RedisFencedResource({ client, key: "orders" });
  await runExample(example("redis"), { REDIS_URL: redis().url }, async () => (await orders.read()).value === "ship order 7");
  const { highestToken } = await orders.read();
  // released on SIGTERM: the next node is granted at once, with the next token
  assert.deepEqual(await new RedisStore({ client }).send(next("orders")), { type: "Granted", token: highestToken + 1n, ttl_ms: 10_000 });
});

// The examples once did their work only when `campaign()`'s first answer was a win: a node
// that started second waited, was elected when the first went, and never wrote. Two copies
// of the Redis example: the second writes under the next token once the first is stopped.
test("readme_redis_example_works_on_the_node_that_takes_over", async () => {
  const client = await redisClient(redis());
  const orders = new RedisFencedResource({ client, key: "takeover" });
  const code = example("redis").replaceAll('key: "orders"', 'key: "takeover"');
  const first = await startExample(code, { REDIS_URL: redis().url }, async () => (await orders.read()).value === "ship order 7");
  const { highestToken } = await orders.read();
  let second;
  try {
    // The second node connects (a third client: this test's and the first node's before it),
    // then its first attempt loses to the first node; only then is the first stopped.
    const clients = async () => String(await client.sendCommand(["CLIENT", "LIST"])).trim().split("\n").length;
    second = await startExample(code, { REDIS_URL: redis().url }, async () => (await clients()) >= 3);
    await sleep(1_000);
    first.child.kill("SIGTERM");
    assert.deepEqual(await first.exited, { code: 0, signal: null }, first.output());
    const deadline = performance.now() + 15_000;
    while ((await orders.read()).highestToken <= highestToken) {
      assert.equal(second.child.exitCode, null, `the second node exited:\n${second.output()}`);
      assert.ok(performance.now() < deadline, `the second node never wrote after taking over:\n${second.output()}`);
      await sleep(50);
    }
    assert.deepEqual(await orders.read(), { value: "ship order 7", highestToken: highestToken + 1n });
  } finally {
    for (const ex of [first, second]) if (ex && ex.child.exitCode === null) ex.child.kill("SIGKILL");
  }
});

test("readme_postgres_example_runs_and_hands_over_on_sigterm", async () => {
  const pool = pgPool(postgres());
  const orders = new PostgresFencedTable({ client: pool, key: "orders" });
  const written = async () => (await orders.read().catch(() => ({}))).value === "ship order 7";
  await runExample(example("postgres"), { DATABASE_URL: postgres().connectionString }, written);
  const { highestToken } = await orders.read();
  assert.deepEqual(await new PostgresStore({ client: pool }).send(next("orders")), { type: "Granted", token: highestToken + 1n, ttl_ms: 10_000 });
});

test("readme_etcd_example_runs_and_hands_over_on_sigterm", async () => {
  const pool = pgPool(postgres());
  const invoices = new PostgresFencedTable({ client: pool, key: "invoices", table: "invoice_writes" });
  const written = async () => (await invoices.read().catch(() => ({}))).value === "send invoice 7";
  await runExample(example("etcd"), { ETCD_HOSTS: etcd().hosts.join(","), DATABASE_URL: postgres().connectionString }, written);
  const granted = await new EtcdStore({ client: etcdClient(etcd().hosts) }).send(next("invoices"));
  assert.equal(granted.type, "Granted", "released on SIGTERM: the next node is granted at once");
  assert.ok(granted.token > (await invoices.read()).highestToken);
});

test("readme_etcd_and_postgres_examples_share_no_lease_key_and_no_fenced_row", () => {
  const keys = (code) => [...code.matchAll(/key: "([^"]+)"/g)].map((m) => m[1]);
  const tables = (code) => [...code.matchAll(/table: "([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(keys(example("etcd")).filter((k) => keys(example("postgres")).includes(k)), [], "lease and fenced keys differ");
  assert.deepEqual(tables(example("postgres")), [], "the PostgreSQL example uses the default tables");
  assert.deepEqual(tables(example("etcd")), ["invoice_writes"], "the etcd example fences at a table of its own");
});

// The story: the examples had no `error` listener on the node-redis client or the pg Pool, so
// when the server went away (a restart, a failover) the client emitted `error`, Node threw it,
// and every node of the service exited at once. Each example now survives its server going
// away: it logs, the election reports `error` events and steps down at its deadline.
for (const [store, start, env, written] of [
  ["redis", startRedis, (server) => ({ REDIS_URL: server.url }), async (server) => {
    const client = await redisClient(server);
    return async () => (await new RedisFencedResource({ client, key: "orders" }).read()).value === "ship order 7";
  }],
  ["postgres", startPostgres, (server) => ({ DATABASE_URL: server.connectionString }), async (server) => {
    const orders = new PostgresFencedTable({ client: pgPool(server), key: "orders" });
    return async () => (await orders.read().catch(() => ({}))).value === "ship order 7";
  }],
]) {
  test(`readme_${store}_example_survives_its_server_going_away`, async () => {
    const server = await start();
    try {
      const { child, output } = await startExample(example(store), env(server), await written(server));
      try {
        await server.stop();
        await sleep(2_000);
        assert.equal(child.exitCode, null, `the example exited when its server went away:\n${output()}`);
        assert.match(output(), store === "redis" ? /redis: / : /postgres: /, "its error listener heard it");
      } finally {
        child.kill("SIGKILL");
      }
    } finally {
      await server.stop();
    }
  });
}
