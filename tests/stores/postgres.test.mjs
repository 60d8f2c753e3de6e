// PostgresStore and PostgresFencedTable against a real PostgreSQL the test starts: one atomic
// statement per request, token + 1 only on a new grant, expiry on the database's clock, races
// between connections, and the fenced UPDATE answering { accepted, presented, required }.
import assert from "node:assert/strict";
import { test } from "node:test";
import pg from "pg";
import { PostgresFencedTable, PostgresStore } from "tenure/postgres";
import { checkStoreContract, runDifferential } from "tenure/testing";
import { assertLoneSurrogatesRefused, freshKey, pgPool, show, sleep, startPostgres, useServer } from "./helpers.mjs";

const postgres = useServer(startPostgres);
const lease = (key, holder, session = `${holder}-session`) => ({ key, holder, session });
const rejected = (reason) => ({ type: "Rejected", reason });

test("postgres_migrate_creates_cluster_leadership_and_is_idempotent", async () => {
  const pool = pgPool(postgres());
  const store = new PostgresStore({ client: pool });
  await store.migrate();
  await store.migrate();
  const { rows } = await pool.query(
    "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'cluster_leadership' ORDER BY ordinal_position",
  );
  assert.deepEqual(
    rows.map((r) => `${r.column_name} ${r.data_type}`),
    [
      "resource text",
      "holder_id text",
      "session_id text",
      "fencing_token bigint",
      "acquired_at timestamp with time zone",
      "expires_at timestamp with time zone",
    ],
  );
});

test("postgres_migrate_upgrades_the_sources_schema_with_a_session", async () => {
  const pool = pgPool(postgres());
  await pool.query(`CREATE TABLE legacy_leadership (resource text PRIMARY KEY, holder_id text NOT NULL,
    fencing_token bigint NOT NULL, acquired_at timestamptz NOT NULL, expires_at timestamptz NOT NULL)`);
  await pool.query("INSERT INTO legacy_leadership VALUES ('orders', 'old', 41, now(), now() - interval '1 second')");
  const store = new PostgresStore({ client: pool, table: "legacy_leadership" });
  await store.migrate();
  assert.deepEqual(await store.send({ type: "Acquire", ...lease("orders", "a"), ttl_ms: 5_000 }), {
    type: "Granted",
    token: 42n,
    ttl_ms: 5_000,
  });
});

// migrate() on `table` naming an existing table that is not a lease table (one of the user's
// own) ran ALTER TABLE ... ADD COLUMN session_id on it, silently, and every send failed later.
// Now it reads the table's columns (information_schema) first and refuses (ERR_TABLE_SCHEMA,
// naming the table, the columns found and those expected) with nothing created or altered;
// the store's own layout and the older one it upgrades are still taken. PostgresFencedTable's
// migrate() checks its table the same way.
test("postgres_migrate_refuses_an_unrelated_existing_table_and_changes_nothing", async () => {
  const pool = pgPool(postgres());
  await pool.query("CREATE TABLE some_existing_unrelated_table (id integer PRIMARY KEY, name text NOT NULL)");
  await pool.query("INSERT INTO some_existing_unrelated_table VALUES (1, 'kept')");
  const columns = async (name) =>
    (await pool.query("SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position", [name])).rows.map(
      (r) => `${r.column_name} ${r.data_type}`,
    );
  const before = await columns("some_existing_unrelated_table");
  assert.deepEqual(before, ["id integer", "name text"]);
  const store = new PostgresStore({ client: pool, table: "some_existing_unrelated_table" });
  await assert.rejects(store.migrate(), (err) => {
    assert.ok(err instanceof Error, show(err));
    assert.equal(err.code, "ERR_TABLE_SCHEMA");
    assert.equal(err.table, '"some_existing_unrelated_table"');
    assert.deepEqual(err.found, ["id integer", "name text"]);
    assert.equal(err.expected.length, 6);
    assert.match(err.message, /^PostgresStore\.migrate: table "some_existing_unrelated_table" exists and is not a lease table: its columns are \(id integer, name text\); expected \(resource text, holder_id text, session_id text, fencing_token bigint, acquired_at timestamp with time zone, expires_at timestamp with time zone\), or \(resource text, holder_id text, fencing_token bigint, acquired_at timestamp with time zone, expires_at timestamp with time zone\)/);
    assert.match(err.message, /Nothing was created or altered/);
    return true;
  });
  assert.deepEqual(await columns("some_existing_unrelated_table"), before, "no column added");
  assert.deepEqual((await pool.query("SELECT * FROM some_existing_unrelated_table")).rows, [{ id: 1, name: "kept" }]);

  // A lease table with a column of the wrong type is not the store's either.
  await pool.query(`CREATE TABLE text_token_leadership (resource text PRIMARY KEY, holder_id text NOT NULL,
    fencing_token text NOT NULL, acquired_at timestamptz NOT NULL, expires_at timestamptz NOT NULL)`);
  await assert.rejects(new PostgresStore({ client: pool, table: "text_token_leadership" }).migrate(), { code: "ERR_TABLE_SCHEMA", message: /fencing_token text/ });
  assert.deepEqual(await columns("text_token_leadership"), ["resource text", "holder_id text", "fencing_token text", "acquired_at timestamp with time zone", "expires_at timestamp with time zone"]);

  // The fenced table's migrate() refuses an unrelated table too (it created nothing there, then its INSERT failed).
  await assert.rejects(new PostgresFencedTable({ client: pool, key: "r", table: "some_existing_unrelated_table" }).migrate(), {
    code: "ERR_TABLE_SCHEMA",
    message: /^PostgresFencedTable\.migrate: table "some_existing_unrelated_table" exists and is not a fenced table: its columns are \(id integer, name text\); expected \(key text, fencing_token numeric, value text, updated_at timestamp with time zone\)/,
  });

  // Its own table (created, then again) and a schema-qualified name still migrate.
  const fresh = new PostgresStore({ client: pool, table: "checked_leadership" });
  await fresh.migrate();
  await fresh.migrate();
  await pool.query("CREATE SCHEMA IF NOT EXISTS other");
  await new PostgresStore({ client: pool, table: "other.checked_leadership" }).migrate();
  await new PostgresStore({ client: pool, table: "other.checked_leadership" }).migrate();
  assert.equal((await fresh.send({ type: "Acquire", ...lease(freshKey(), "a"), ttl_ms: 1_000 })).type, "Granted");
});

test("postgres_tokens_grow_by_one_only_on_a_new_grant", async () => {
  const pool = pgPool(postgres());
  const store = new PostgresStore({ client: pool });
  await store.migrate();
  const key = freshKey();
  const a = lease(key, "a");
  assert.deepEqual(await store.send({ type: "Acquire", ...a, ttl_ms: 5_000 }), { type: "Granted", token: 1n, ttl_ms: 5_000 });
  assert.deepEqual(await store.send({ type: "Acquire", ...a, ttl_ms: 5_000 }), { type: "Granted", token: 1n, ttl_ms: 5_000 });
  const held = await store.send({ type: "Acquire", ...lease(key, "b"), ttl_ms: 5_000 });
  assert.equal(held.type, "Held");
  assert.equal(held.holder, "a");
  assert.ok(held.remaining_ms > 4_000 && held.remaining_ms <= 5_000, show(held));
  for (let i = 0; i < 5; i++) {
    assert.deepEqual(await store.send({ type: "Renew", ...a, token: 1n, ttl_ms: 5_000 }), { type: "Renewed", token: 1n, ttl_ms: 5_000 });
  }
  const { rows } = await pool.query("SELECT fencing_token::text AS t FROM cluster_leadership WHERE resource = $1", [key]);
  assert.equal(rows[0].t, "1", "renewals never bump the token (the sources' single statement did)");
  assert.deepEqual(await store.send({ type: "Release", ...a, token: 1n }), { type: "Released" });
  assert.deepEqual(await store.send({ type: "Release", ...a, token: 1n }), { type: "Released" });
  assert.deepEqual(await store.send({ type: "Renew", ...a, token: 1n, ttl_ms: 5_000 }), rejected("Expired"), "released");
  // the same holder after its release is a new grant
  assert.deepEqual(await store.send({ type: "Acquire", ...a, ttl_ms: 5_000 }), { type: "Granted", token: 2n, ttl_ms: 5_000 });
  const clash = await store.send({ type: "Acquire", ...lease(key, "a", "other"), ttl_ms: 5_000 });
  assert.equal(clash.type, "Held", "same holder, another session: kept out (design rule 8)");
  assert.equal(clash.holder, "a");
});

test("postgres_renew_and_release_check_holder_session_and_token", async () => {
  const store = new PostgresStore({ client: pgPool(postgres()) });
  await store.migrate();
  const key = freshKey();
  const a = lease(key, "a");
  await store.send({ type: "Acquire", ...a, ttl_ms: 5_000 });
  assert.deepEqual(await store.send({ type: "Renew", ...lease(key, "b"), token: 1n, ttl_ms: 5_000 }), rejected("NotHolder"));
  assert.deepEqual(await store.send({ type: "Renew", ...lease(key, "a", "x"), token: 1n, ttl_ms: 5_000 }), rejected("NotHolder"));
  assert.deepEqual(await store.send({ type: "Renew", ...a, token: 2n, ttl_ms: 5_000 }), rejected("TokenMismatch"));
  assert.deepEqual(await store.send({ type: "Renew", ...a, token: 2n ** 64n - 1n, ttl_ms: 5_000 }), rejected("TokenMismatch"));
  assert.deepEqual(await store.send({ type: "Release", ...lease(key, "b"), token: 1n }), rejected("NotHolder"));
  assert.deepEqual(await store.send({ type: "Release", ...a, token: 9n }), rejected("TokenMismatch"));
  assert.deepEqual(await store.send({ type: "Renew", ...lease(freshKey(), "a"), token: 1n, ttl_ms: 5_000 }), rejected("NotHolder"));
  assert.deepEqual(await store.send({ type: "Renew", ...a, token: 1n, ttl_ms: 5_000 }), { type: "Renewed", token: 1n, ttl_ms: 5_000 });
});

test("postgres_expiry_is_the_database_clock_at_the_statement", async () => {
  const pool = pgPool(postgres());
  const store = new PostgresStore({ client: pool });
  await store.migrate();
  const key = freshKey();
  const a = lease(key, "a");
  assert.deepEqual(await store.send({ type: "Acquire", ...a, ttl_ms: 150.5 }), { type: "Granted", token: 1n, ttl_ms: 150.5 });
  const { rows } = await pool.query(
    "SELECT EXTRACT(EPOCH FROM (expires_at - acquired_at)) * 1000 AS ttl FROM cluster_leadership WHERE resource = $1",
    [key],
  );
  assert.equal(Number(rows[0].ttl), 150.5, "microsecond timestamps keep the fractional ttl");
  await sleep(200);
  assert.deepEqual(await store.send({ type: "Renew", ...a, token: 1n, ttl_ms: 150 }), rejected("Expired"));
  // Granted at the statement's own clock_timestamp(), the lease runs its full ttl from then.
  assert.deepEqual(await store.send({ type: "Acquire", ...lease(key, "b"), ttl_ms: 300 }), { type: "Granted", token: 2n, ttl_ms: 300 });
  const row = await pool.query(
    "SELECT EXTRACT(EPOCH FROM (expires_at - clock_timestamp())) * 1000 AS left FROM cluster_leadership WHERE resource = $1",
    [key],
  );
  assert.ok(Number(row.rows[0].left) > 200, `the lease runs from the statement's time: ${row.rows[0].left} ms left`);
});

// A lease statement inside the caller's transaction was taken: the grant was seen by nobody
// else, and a ROLLBACK undid it after the node had led under its token, so the next grant
// issued the same token to another node and a fenced table accepted both. Now a request on a
// Client inside a transaction is refused before it is sent, or (BEGIN queued just ahead of it)
// its answer is not taken, with ERR_STORE_IN_TRANSACTION; no token is issued twice.
test("postgres_store_refuses_to_run_inside_the_callers_transaction_so_no_token_is_issued_twice", async () => {
  const pool = pgPool(postgres());
  const store = new PostgresStore({ client: pool });
  await store.migrate();
  const key = freshKey();
  assert.deepEqual(await store.send({ type: "Acquire", ...lease(key, "z"), ttl_ms: 100 }), { type: "Granted", token: 1n, ttl_ms: 100 });
  await sleep(150);
  const client = await pool.connect();
  try {
    const inTx = new PostgresStore({ client });
    // BEGIN acknowledged: refused before any statement.
    await client.query("BEGIN");
    await assert.rejects(inTx.send({ type: "Acquire", ...lease(key, "a"), ttl_ms: 5_000 }), (err) => {
      assert.equal(err.code, "ERR_STORE_IN_TRANSACTION");
      assert.match(err.message, /^PostgresStore: Acquire on key ".*" failed: not sent: the `pg` Client is inside a transaction \(after your BEGIN\)/);
      return true;
    });
    await client.query("ROLLBACK");
    // BEGIN queued just ahead of the statement: it ran inside, so its answer is not taken.
    const begin = client.query("BEGIN");
    await assert.rejects(inTx.send({ type: "Acquire", ...lease(key, "a"), ttl_ms: 5_000 }), (err) => {
      assert.equal(err.code, "ERR_STORE_IN_TRANSACTION");
      assert.match(err.message, /ran inside a transaction, so its answer is not taken/);
      return true;
    });
    await begin;
    await client.query("ROLLBACK");
    // Outside the transaction the same Client works.
    assert.deepEqual(await inTx.send({ type: "Acquire", ...lease(key, "a"), ttl_ms: 5_000 }), { type: "Granted", token: 2n, ttl_ms: 5_000 });
  } finally {
    client.release();
  }
  // The rolled-back attempts issued nothing: the next holder gets a token above a's.
  assert.deepEqual(await store.send({ type: "Release", ...lease(key, "a"), token: 2n }), { type: "Released" });
  assert.deepEqual(await store.send({ type: "Acquire", ...lease(key, "b"), ttl_ms: 5_000 }), { type: "Granted", token: 3n, ttl_ms: 5_000 });
});

test("postgres_keys_over_2048_utf8_bytes_are_refused_before_any_statement", async () => {
  const pool = pgPool(postgres());
  const store = new PostgresStore({ client: pool });
  await store.migrate();
  // 683 three-byte characters: 2,049 bytes, 683 UTF-16 units (far under the 65,536 unit limit).
  const varied = Array.from({ length: 683 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 7919) % 20000))).join("");
  await assert.rejects(store.send({ type: "Acquire", ...lease(varied, "a"), ttl_ms: 5_000 }), (err) => {
    assert.equal(err.code, "ERR_STORE_REQUEST");
    assert.match(err.message, /is 2049 bytes in UTF-8; PostgreSQL indexes at most 2048 bytes of a key/);
    return true;
  });
  // At the limit, varied (incompressible) text is stored and granted.
  const atLimit = varied.slice(0, 682) + "ab";
  assert.equal(Buffer.byteLength(atLimit), 2048);
  assert.deepEqual(await store.send({ type: "Acquire", ...lease(atLimit, "a"), ttl_ms: 5_000 }), { type: "Granted", token: 1n, ttl_ms: 5_000 });
  assert.throws(() => new PostgresFencedTable({ client: pool, key: varied }), (err) => {
    assert.equal(err.code, "ERR_STORE_OPTIONS");
    assert.match(err.message, /options\.key .* is 2049 bytes in UTF-8/);
    return true;
  });
  const fenced = new PostgresFencedTable({ client: pool, key: atLimit });
  await fenced.migrate();
  assert.deepEqual(await fenced.write(1n, "v"), { accepted: true, token: 1n });
});

test("postgres_concurrent_acquires_over_many_connections_grant_exactly_one", async () => {
  const pool = pgPool(postgres(), { max: 10 });
  const store = new PostgresStore({ client: pool });
  await store.migrate();
  for (let round = 1; round <= 5; round++) {
    const key = round === 1 ? freshKey("first-insert") : freshKey();
    // round 1: a key nobody saw before, so ten INSERTs race on the primary key
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.send({ type: "Acquire", ...lease(key, `h${i}`), ttl_ms: 5_000 })),
    );
    const granted = replies.filter((r) => r.type === "Granted");
    assert.equal(granted.length, 1, show(replies));
    assert.equal(granted[0].token, 1n);
    assert.ok(replies.every((r) => r.type === "Granted" || r.type === "Held"), show(replies));
  }
  // the same key under contention, taken over after each release: no token skipped
  const key = freshKey();
  for (let round = 1; round <= 5; round++) {
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.send({ type: "Acquire", ...lease(key, `h${i}`), ttl_ms: 5_000 })),
    );
    const granted = replies.filter((r) => r.type === "Granted");
    assert.equal(granted.length, 1, show(replies));
    assert.equal(granted[0].token, BigInt(round));
    await store.send({ type: "Release", ...lease(key, `h${replies.indexOf(granted[0])}`), token: BigInt(round) });
  }
});

test("postgres_tokens_exhausted_at_bigint_max", async () => {
  const pool = pgPool(postgres());
  const store = new PostgresStore({ client: pool });
  await store.migrate();
  const key = freshKey();
  await pool.query("INSERT INTO cluster_leadership VALUES ($1, 'old', '', 9223372036854775807, now(), now())", [key]);
  assert.deepEqual(await store.send({ type: "Acquire", ...lease(key, "a"), ttl_ms: 100 }), rejected("TokensExhausted"));
});

test("postgres_bad_input_and_failures_reject_with_codes", async () => {
  const server = await startPostgres();
  const pool = pgPool(server, { connectionTimeoutMillis: 2_000 });
  const store = new PostgresStore({ client: pool });
  await assert.rejects(store.send({ type: "Acquire", ...lease("k", "a"), ttl_ms: 100 }), (err) => {
    assert.equal(err.code, "ERR_STORE");
    assert.match(err.message, /PostgresStore: Acquire on key "k" failed: .*cluster_leadership.* does not exist/);
    assert.equal(err.cause.code, "42P01");
    return true;
  }, "before migrate()");
  await store.migrate();
  await assert.rejects(store.send({ type: "Renew", ...lease("k", "a"), token: 1, ttl_ms: 100 }), { code: "ERR_STORE_REQUEST" });
  assert.throws(() => new PostgresStore({ client: pool, table: "x; DROP TABLE y" }), { code: "ERR_STORE_OPTIONS" });
  assert.throws(() => new PostgresFencedTable({ client: pool }), { code: "ERR_STORE_OPTIONS" });
  await server.stop();
  await assert.rejects(store.send({ type: "Acquire", ...lease("k", "a"), ttl_ms: 100 }), { code: "ERR_STORE" });
});

// The story: "k\uD800" and "k\uDBFF" were one row of cluster_leadership (pg sends UTF-8, where
// both become "k\uFFFD"): the second acquire was Held by the first holder.
test("postgres_lone_surrogates_in_keys_and_values_are_refused", async () => {
  const pool = pgPool(postgres());
  const store = new PostgresStore({ client: pool, table: "lone_surrogates" });
  await store.migrate();
  await assertLoneSurrogatesRefused(store, "PostgresStore");
  assert.throws(() => new PostgresFencedTable({ client: pool, key: "r\uDBFF" }), (err) => {
    assert.ok(err instanceof TypeError);
    assert.equal(err.code, "ERR_STORE_OPTIONS");
    assert.match(err.message, /^new PostgresFencedTable\(options\): options\.key "r\\udbff" is not well-formed Unicode: it has a lone UTF-16 surrogate, \\uDBFF at index 1/);
    return true;
  });
  const table = new PostgresFencedTable({ client: pool, key: freshKey("lone-value") });
  await table.migrate();
  await assert.rejects(table.write(1n, "v\uD800"), { code: "ERR_VALUE_TYPE", message: /^PostgresFencedTable\.write: the value "v\\ud800" is not well-formed Unicode/ });
  assert.deepEqual(await table.read(), { highestToken: 0n, value: undefined }, "nothing was written");
  assert.deepEqual(await table.write(1n, "v\u{1F600}"), { accepted: true, token: 1n });
  assert.equal((await table.read()).value, "v\u{1F600}", "a surrogate pair round-trips");
});

// The story: a key with U+0000 passed every check, and each request then failed at the server
// (ERR_STORE, "invalid byte sequence for encoding UTF8: 0x00"), so an election on it retried
// and failed forever. PostgreSQL text cannot hold U+0000: refused before any statement.
test("postgres_nul_in_keys_holders_and_values_is_refused_before_any_statement", async () => {
  const pool = pgPool(postgres());
  const store = new PostgresStore({ client: pool, table: "nul_refused" });
  await store.migrate();
  const key = freshKey("nul");
  for (const field of ["key", "holder", "session"]) {
    const request = { type: "Acquire", key, holder: "a", session: "s", ttl_ms: 1000, [field]: "x\0y" };
    await assert.rejects(store.send(request), (err) => {
      assert.ok(err instanceof RangeError);
      assert.equal(err.code, "ERR_STORE_REQUEST");
      assert.match(err.message, new RegExp(`^PostgresStore\\.send: request\\.${field} "x\\\\u0000y" has U\\+0000 \\(NUL\\) at index 1, which PostgreSQL text cannot store`));
      return true;
    });
  }
  assert.equal((await store.send({ type: "Acquire", key, holder: "a", session: "s", ttl_ms: 1000 })).token, 1n, "nothing reached the table before");
  assert.throws(() => new PostgresFencedTable({ client: pool, key: "r\0" }), { code: "ERR_STORE_OPTIONS", message: /options\.key "r\\u0000" has U\+0000 \(NUL\) at index 1/ });
  const table = new PostgresFencedTable({ client: pool, key: freshKey("nul-value") });
  await table.migrate();
  await assert.rejects(table.write(1n, "v\0"), { code: "ERR_VALUE_TYPE", message: /the value "v\\u0000" has U\+0000 \(NUL\) at index 1/ });
  assert.deepEqual(await table.read(), { highestToken: 0n, value: undefined }, "nothing was written");
});

// The story: the prepared statements were named `tenure_acquire_<table>`; PostgreSQL keeps the
// first 63 bytes of a name, so on one connection the tables "aaa...a_one" and "aaa...a_two"
// (50 a's) shared a statement, and the second store's every request failed with 42P05
// ("prepared statement ... already exists"); pg printed "Postgres only supports 63 characters
// for query names". And the fenced tables "x" and "read_x" both named `tenure_fence_read_x`.
test("postgres_statement_names_stay_unique_within_63_bytes_for_long_and_look_alike_tables", async () => {
  const pool = pgPool(postgres(), { max: 1 }); // one connection: every statement is prepared on it
  const stem = "a".repeat(50);
  const [one, two] = [`${stem}_one`, `${stem}_two`].map((table) => new PostgresStore({ client: pool, table }));
  const schema = "s".repeat(63);
  await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  const longest = new PostgresStore({ client: pool, table: `${schema}.${"t".repeat(63)}` }); // 127 bytes
  const stores = [one, two, longest];
  for (const store of stores) await store.migrate();
  const key = freshKey("long-table");
  const granted = [];
  for (const [i, store] of stores.entries()) {
    const a = lease(key, `holder-${i}`);
    const reply = await store.send({ type: "Acquire", ...a, ttl_ms: 5_000 });
    granted.push(reply.type);
    assert.equal((await store.send({ type: "Renew", ...a, token: reply.token, ttl_ms: 5_000 })).type, "Renewed");
    assert.deepEqual(await store.send({ type: "Release", ...a, token: reply.token }), { type: "Released" });
  }
  assert.deepEqual(granted, ["Granted", "Granted", "Granted"], "three tables, three leases of one key");
  const fenced = ["x_fenced", "read_x_fenced"].map((table) => new PostgresFencedTable({ client: pool, key, table }));
  for (const [i, table] of fenced.entries()) {
    await table.migrate();
    assert.deepEqual(await table.write(BigInt(i + 1), `v${i}`), { accepted: true, token: BigInt(i + 1) });
    assert.deepEqual(await table.read(), { highestToken: BigInt(i + 1), value: `v${i}` });
  }
  const { rows } = await pool.query("SELECT name FROM pg_prepared_statements WHERE name LIKE 'tenure%'");
  const names = rows.map((r) => r.name);
  assert.equal(names.length, 3 * 3 + 2 * 2, show(names));
  assert.equal(new Set(names).size, names.length, "no two statements share a name");
  for (const name of names) assert.ok(Buffer.byteLength(name) <= 63, `${name}: ${Buffer.byteLength(name)} bytes`);
  for (const name of ["tenure_fence:x_fenced", "tenure_fence_read:x_fenced", "tenure_fence:read_x_fenced"]) {
    assert.ok(names.includes(name), `a name that fits keeps the whole table name: ${name} in ${show(names)}`);
  }
  const cut = names.filter((n) => /^tenure_acquire:(a{31}|s{31})~[0-9a-f]{16}$/.test(n));
  assert.equal(cut.length, 3, `a longer one keeps the table's start and a hash of it: ${show(names)}`);
});

// The story: a `new pg.Client()` passed before `await client.connect()` was taken; pg queues a
// query until the client connects, so every request timed out (ERR_STORE_TIMEOUT in the
// election) with no word of why. The store does not own the connection, so a Client that is
// not connected, or was ended, and an ended Pool are refused at construction.
test("postgres_store_refuses_an_unconnected_or_ended_client_or_pool", async () => {
  const client = new pg.Client(postgres().config);
  client.on("error", () => {});
  const makers = [(c) => new PostgresStore({ client: c }), (c) => new PostgresFencedTable({ client: c, key: "k" })];
  for (const make of makers) {
    assert.throws(() => make(client), (err) => {
      assert.ok(err instanceof TypeError);
      assert.equal(err.code, "ERR_STORE_OPTIONS");
      assert.match(err.message, /^new Postgres(Store|FencedTable)\(options\): options\.client is a `pg` Client that is not connected: call `await client\.connect\(\)` first, or pass a `pg` Pool, which connects on its own/);
      return true;
    });
  }
  const connecting = client.connect(); // connecting: its queries wait for the connection, which comes
  const store = new PostgresStore({ client, table: "connected_client" });
  await connecting;
  await store.migrate();
  assert.equal((await store.send({ type: "Acquire", ...lease(freshKey("client"), "a"), ttl_ms: 1_000 })).type, "Granted");
  await client.end();
  for (const make of makers) assert.throws(() => make(client), { code: "ERR_STORE_OPTIONS", message: /is a `pg` Client that was ended \(client\.end\(\)\)/ });
  const pool = new pg.Pool(postgres().config);
  assert.doesNotThrow(() => new PostgresStore({ client: pool }), "a Pool connects on its own");
  await pool.end();
  for (const make of makers) assert.throws(() => make(pool), { code: "ERR_STORE_OPTIONS", message: /is a `pg` Pool that was ended \(pool\.end\(\)\)/ });
});

test("postgres_fenced_table_write_is_one_update_that_answers_required", async () => {
  const pool = pgPool(postgres());
  const table = new PostgresFencedTable({ client: pool, key: "shard-7" });
  await table.migrate();
  await table.migrate();
  assert.deepEqual(await table.read(), { highestToken: 0n, value: undefined });
  assert.deepEqual(await table.write(33n, "from leader 1"), { accepted: true, token: 33n });
  assert.deepEqual(await table.write(33n, "again"), { accepted: true, token: 33n });
  assert.deepEqual(await table.establish(34n), { accepted: true, token: 34n });
  const stale = { accepted: false, reason: "stale fencing token", presented: 33n, required: 34n };
  assert.deepEqual(await table.write(33n, "late, from leader 1"), stale);
  assert.deepEqual(await table.check(33n), stale);
  assert.deepEqual(await table.read(), { highestToken: 34n, value: "again" });
  assert.equal((await table.establish(2n ** 64n - 1n)).accepted, true, "numeric(20,0) holds every u64");
  assert.equal((await table.write(2n ** 64n - 2n, "x")).accepted, false);
  await assert.rejects(table.write(1, "x"), { code: "ERR_TOKEN_TYPE" });
  await assert.rejects(table.write(-1n, "x"), { code: "ERR_TOKEN_RANGE" });
  await assert.rejects(table.write(1n, 5), { code: "ERR_VALUE_TYPE" });
  await assert.rejects(new PostgresFencedTable({ client: pool, key: "never-migrated" }).write(1n, "x"), {
    code: "ERR_FENCED_ROW_MISSING",
  });
});

// write(token, null) was accepted and stored NULL, the column's value in a row no write ever
// reached, so read() gave `value: undefined` for both: a reader could not tell "written null"
// from "never written". null is refused like every other non-string, naming the argument,
// before any statement, and the row keeps what it had.
test("postgres_fenced_table_refuses_a_null_value_so_read_tells_written_from_never_written", async () => {
  const pool = pgPool(postgres());
  const table = new PostgresFencedTable({ client: pool, key: freshKey("null-value") });
  await table.migrate();
  assert.deepEqual(await table.read(), { highestToken: 0n, value: undefined }, "never written");
  await assert.rejects(table.write(1n, null), (err) => {
    assert.ok(err instanceof TypeError, String(err));
    assert.equal(err.code, "ERR_VALUE_TYPE");
    assert.match(err.message, /^PostgresFencedTable\.write: the value must be a string, got null: /);
    return true;
  });
  assert.deepEqual(await table.read(), { highestToken: 0n, value: undefined }, "the refused write changed nothing");
  assert.deepEqual(await table.write(1n, ""), { accepted: true, token: 1n });
  assert.deepEqual(await table.read(), { highestToken: 1n, value: "" }, "an empty value reads back as written");
});

test("postgres_fenced_table_under_concurrent_connections_reports_the_token_it_decided_on", async () => {
  const pool = pgPool(postgres(), { max: 10 });
  const table = new PostgresFencedTable({ client: pool, key: freshKey("race"), table: "race_fence" });
  await table.migrate();
  await pool.query("CREATE TABLE race_audit (seq bigserial PRIMARY KEY, token numeric NOT NULL)");
  await pool.query(`CREATE FUNCTION race_audit_row() RETURNS trigger AS $$
    BEGIN INSERT INTO race_audit (token) VALUES (NEW.fencing_token); RETURN NEW; END $$ LANGUAGE plpgsql`);
  await pool.query("CREATE TRIGGER race_audit AFTER UPDATE ON race_fence FOR EACH ROW EXECUTE FUNCTION race_audit_row()");
  const tokens = Array.from({ length: 300 }, (_, i) => BigInt(1 + ((i * 7919) % 97)));
  const results = await Promise.all(tokens.map((t) => table.write(t, `w${t}`)));
  for (const [i, result] of results.entries()) {
    if (!result.accepted) {
      assert.equal(result.presented, tokens[i]);
      assert.ok(result.required > result.presented, `refused ${show(result)}: required must exceed presented`);
    }
  }
  const audit = (await pool.query("SELECT token::text AS t FROM race_audit ORDER BY seq")).rows.map((r) => BigInt(r.t));
  assert.equal(audit.length, results.filter((r) => r.accepted).length, "one audit row per accepted write");
  for (let i = 1; i < audit.length; i++) assert.ok(audit[i] >= audit[i - 1], `accepted writes went back: ${audit[i - 1]} then ${audit[i]}`);
  assert.equal((await table.read()).highestToken, audit.at(-1));
});

test("postgres_store_keeps_the_store_contract", async (t) => {
  const pool = pgPool(postgres());
  const store = new PostgresStore({ client: pool, table: "contract_leadership" });
  await store.migrate();
  // timestamptz has microsecond resolution; the driver's and the database's clocks differ
  // only in rate here (same machine)
  const report = await checkStoreContract(() => store, { ttlMs: 300, clockResolutionMs: 1, t });
  assert.ok(report.ok, report.text);
});

test("postgres_store_differential_against_lease_store_finds_no_breach", async () => {
  const pool = pgPool(postgres());
  const store = new PostgresStore({ client: pool, table: "differential_leadership" });
  await store.migrate();
  const diff = await runDifferential(() => store, {
    steps: 120,
    ttlMs: 150,
    // The store's clock is 1 ms (Redis) or 1 us (PostgreSQL), but on a shared two-core machine
    // a request can reach the server several ms after the kit read its clock: 10 ms of
    // tolerance around each expiry, so scheduling delays count as clock, not as breaches.
    clockResolutionMs: 10,
  });
  assert.ok(diff.ok, `seed ${diff.seed}n: ${show(diff.counts)}\n${show(diff.differences.filter((d) => d.kind === "breach"))}`);
  // PostgreSQL numbers exactly +1: a numbering difference may only follow a clock difference (a
  // lease that one side saw expire a moment before the other shifts every later token).
  const firstClock = diff.differences.find((d) => d.kind === "clock")?.step ?? Infinity;
  const firstNumbering = diff.differences.find((d) => d.kind === "numbering")?.step ?? Infinity;
  assert.ok(firstNumbering > firstClock || firstNumbering === Infinity, `seed ${diff.seed}n: ${show(diff.differences)}`);
});

test("postgres_adapter_methods_on_a_foreign_this_reject_with_err_this_type", async () => {
  // PostgresStore.prototype.send.call({}, request) rejected with ERR_STORE wrapping the engine's
  // "Cannot read private member #client": now ERR_THIS_TYPE, as the other adapters.
  const pool = pgPool(postgres());
  const store = new PostgresStore({ client: pool });
  const fenced = new PostgresFencedTable({ client: pool, key: freshKey() });
  const args = { send: [{ type: "Acquire", ...lease("k", "a"), ttl_ms: 1_000 }], write: [1n, "x"], establish: [1n], check: [1n] };
  for (const [cls, other] of [[PostgresStore, fenced], [PostgresFencedTable, store]]) {
    const members = Object.getOwnPropertyNames(cls.prototype).filter((m) => m !== "constructor");
    assert.ok(members.length >= 2, members.join());
    for (const member of members) {
      const getter = Object.getOwnPropertyDescriptor(cls.prototype, member).get;
      for (const self of [{}, undefined, Object.create(cls.prototype), other]) {
        const check = (err) => {
          assert.ok(err instanceof TypeError, String(err));
          assert.equal(err.code, "ERR_THIS_TYPE", err.message);
          assert.ok(err.message.startsWith(`${cls.name}.${member}: \`this\` is not a ${cls.name}`), err.message);
          return true;
        };
        if (getter) {
          assert.throws(() => getter.call(self), check);
          continue;
        }
        const answer = cls.prototype[member].call(self, ...(args[member] ?? []));
        assert.ok(answer instanceof Promise, `${cls.name}.${member} answers a promise`);
        await assert.rejects(answer, check);
      }
    }
  }
  // instances still work
  await store.migrate();
  await fenced.migrate();
  const granted = await store.send({ type: "Acquire", ...lease(freshKey(), "a"), ttl_ms: 1_000 });
  assert.equal(granted.type, "Granted", show(granted));
  assert.deepEqual(await fenced.write(granted.token, "x"), { accepted: true, token: granted.token });
  assert.equal(typeof fenced.table, "string");
});

test("postgres_a_table_never_migrated_is_named_with_what_to_do", async () => {
  // ERR_STORE said only `relation "never_made" does not exist`.
  const pool = pgPool(postgres());
  const store = new PostgresStore({ client: pool, table: "never_made_leases" });
  await assert.rejects(store.send({ type: "Acquire", ...lease(freshKey(), "a"), ttl_ms: 1_000 }), (err) => {
    assert.equal(err.code, "ERR_STORE");
    assert.match(err.message, /relation "never_made_leases" does not exist: call PostgresStore\.migrate\(\) first, which creates "never_made_leases"$/);
    return true;
  });
  const fenced = new PostgresFencedTable({ client: pool, key: freshKey(), table: "never_made_fence" });
  for (const call of [() => fenced.write(1n, "v"), () => fenced.read(), () => fenced.establish(1n)]) {
    await assert.rejects(call(), /relation "never_made_fence" does not exist: call PostgresFencedTable\.migrate\(\) first, which creates "never_made_fence"$/);
  }
});
