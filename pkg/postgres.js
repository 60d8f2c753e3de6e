// tenure/postgres: a lease store and a fenced table on PostgreSQL, over the user's own `pg`
// Pool or Client. Each request is one atomic statement; expiry is the database's clock
// (timestamptz, whole microseconds).
import {
  acquireSql,
  fenceReadSql,
  fenceWriteSql,
  fencedMigration,
  leaseMigration,
  FENCED_COLUMNS,
  LEASE_COLUMNS,
  LEASE_COLUMNS_BEFORE_SESSION,
  TABLE_COLUMNS_SQL,
  quoteTable,
  releaseSql,
  renewSql,
  statementName,
} from "./stores/postgres-sql.js";
import { guardThis, notWellFormed, readingInput } from "./guard.js";
import { checkWellFormed, describe, fenceResult, readOptions, readRequest, readStringOption, readToken, storeError, usageError } from "./stores/common.js";

const CLIENT = "a `pg` Pool or a connected `pg` Client";
/** Why a string with U+0000 is refused: PostgreSQL's text cannot hold it, so every statement would fail. */
const NUL_WORDS = (at) =>
  `has U+0000 (NUL) at index ${at}, which PostgreSQL text cannot store (every statement with it would fail); remove it`;

/**
 * Refuses, at construction, a `pg` client no statement could run on (docs/stores.md,
 * "Clients"): a Client never connected (pg queues its queries until connect(), so every request
 * would time out with no word of why), an ended Client, or an ended Pool. A Pool connects on its
 * own; the store never connects or ends your client. Other objects with `query` are taken as they are.
 */
function checkClient(store, client) {
  const refuse = (what) => usageError(TypeError, "ERR_STORE_OPTIONS", `new ${store}(options): options.client ${what}`);
  const isClient = typeof client._connected === "boolean" && typeof client._connecting === "boolean";
  if (isClient && client._ending === true) throw refuse("is a `pg` Client that was ended (client.end()): pass a connected Client or a Pool");
  if (isClient && !client._connected && !client._connecting) {
    throw refuse("is a `pg` Client that is not connected: call `await client.connect()` first, or pass a `pg` Pool, which connects on its own; the store never connects or ends your client");
  }
  if (typeof client.totalCount === "number" && (client.ending === true || client.ended === true)) {
    throw refuse("is a `pg` Pool that was ended (pool.end()): pass a Pool that is open");
  }
  return client;
}
/**
 * The most bytes (UTF-8) of a lease key or fenced-row key PostgreSQL can index: a btree row holds
 * at most 2,704 bytes (PostgreSQL 12+, 8 KB pages), and a longer key that does not compress
 * failed every statement ("index row size ... exceeds btree version 4 maximum"). 2,048 leaves
 * room for the row's headers and does not depend on compression.
 */
const MAX_KEY_BYTES = 2048;
const KEY_BYTES_WORDS = (bytes) =>
  `is ${bytes} bytes in UTF-8; PostgreSQL indexes at most ${MAX_KEY_BYTES} bytes of a key (its btree rows hold 2,704 bytes): use a shorter key`;
const utf8Bytes = (s) => Buffer.byteLength(s, "utf8");

/**
 * Whether a `pg` Client is inside a transaction block it was left in (the `T` or `E` status of
 * its last ReadyForQuery, `getTransactionStatus()`, pg 8.12+). A Pool, or a client without it:
 * false. A lease statement must commit on its own: inside the caller's transaction, other nodes
 * do not see the lease until the caller commits, and a rollback undoes the grant after the node
 * led under its token, so the next grant issues the same token again.
 */
function inTransaction(client) {
  if (typeof client.getTransactionStatus !== "function") return false;
  const status = client.getTransactionStatus();
  return status === "T" || status === "E";
}
const IN_TRANSACTION_WORDS =
  "the `pg` Client is inside a transaction (after your BEGIN): a lease statement must commit on its own, or other nodes do not see the lease until you commit and a rollback undoes the grant, so the same token is issued again; give the store a Pool, or a Client you use outside transactions";

function inTransactionError(request, what) {
  const err = storeError("PostgresStore", request, undefined, what);
  err.code = "ERR_STORE_IN_TRANSACTION";
  return err;
}

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}(\.[A-Za-z_][A-Za-z0-9_]{0,62})?$/;
const TABLE_TEXT = "a table name (letters, digits, _; optionally schema.table)";
const REASONS = new Set(["NotHolder", "TokenMismatch", "Expired"]);
// SQLSTATE 22003: numeric_value_out_of_range, here only from `fencing_token + 1`.
const OUT_OF_RANGE = "22003";
// SQLSTATE 42P01: undefined_table. The store's table is made by migrate(), which nothing calls
// for you: a failure for want of it says so.
const UNDEFINED_TABLE = "42P01";
const failed = (store, request, err, table) =>
  storeError(store, request, err, err?.code === UNDEFINED_TABLE ? `${err.message}: call ${store}.migrate() first, which creates ${table}` : undefined);

/**
 * The lease store on PostgreSQL, in the sources' `cluster_leadership` table. A new grant's
 * token is exactly one more than the key's last (rule 2); the current (holder, session) is
 * re-granted with the same token; Renew keeps the token and fails once the lease expired on
 * the database's clock; Release needs holder, session and token and keeps the row.
 */
export class PostgresStore {
  #client;
  #table;
  #sql;

  /**
   * @param {{ client: object, table?: string }} options `client`: your `pg` Pool or connected
   *   Client; `table` (default "cluster_leadership").
   */
  constructor(options) {
    options = readOptions("PostgresStore", options, ["query"], CLIENT, ["client", "table"]);
    this.#client = readingInput(() => checkClient("PostgresStore", options.client));
    const name = readStringOption("PostgresStore", options, "table", "cluster_leadership", TABLE_NAME, TABLE_TEXT);
    this.#table = quoteTable(name);
    this.#sql = {
      Acquire: { name: statementName("acquire", name), text: acquireSql(this.#table) },
      Renew: { name: statementName("renew", name), text: renewSql(this.#table) },
      Release: { name: statementName("release", name), text: releaseSql(this.#table) },
    };
  }

  /**
   * Creates the lease table if it does not exist (and adds `session_id` to an older one). A
   * table of that name with other columns (not this store's) is refused (ERR_TABLE_SCHEMA)
   * before anything is created or altered.
   */
  async migrate() {
    try {
      await checkColumns(this.#client, "PostgresStore", this.#table, [LEASE_COLUMNS, LEASE_COLUMNS_BEFORE_SESSION], "the older layout without session_id, which migrate() upgrades");
      for (const statement of leaseMigration(this.#table)) await this.#client.query(statement);
    } catch (err) {
      if (err?.code === "ERR_TABLE_SCHEMA") throw err;
      throw storeError("PostgresStore", { type: "migrate" }, err);
    }
  }

  /** One request, one statement. Rejects (code ERR_STORE) if PostgreSQL fails. */
  async send(request) {
    request = readRequest("PostgresStore", request);
    const { type, key, holder, session } = request;
    for (const field of ["key", "holder", "session"]) {
      const at = request[field].indexOf("\0");
      if (at >= 0) throw usageError(RangeError, "ERR_STORE_REQUEST", `PostgresStore.send: request.${field} ${describe(request[field])} ${NUL_WORDS(at)}`);
    }
    const keyBytes = utf8Bytes(key);
    if (keyBytes > MAX_KEY_BYTES) throw usageError(RangeError, "ERR_STORE_REQUEST", `PostgresStore.send: request.key ${describe(key)} ${KEY_BYTES_WORDS(keyBytes)}`);
    // Refused before it is sent when the client is known to be inside a transaction; checked
    // again after, as the caller's BEGIN may have been queued ahead of this statement.
    if (inTransaction(this.#client)) throw inTransactionError(request, `not sent: ${IN_TRANSACTION_WORDS}`);
    const values =
      type === "Acquire"
        ? [key, holder, session, request.ttl_ms]
        : type === "Renew"
          ? [key, holder, session, String(request.token), request.ttl_ms]
          : [key, holder, session, String(request.token)];
    let result;
    try {
      result = await this.#client.query({ ...this.#sql[type], values });
    } catch (err) {
      if (type === "Acquire" && err?.code === OUT_OF_RANGE) return { type: "Rejected", reason: "TokensExhausted" };
      throw failed("PostgresStore", request, err, this.#table);
    }
    if (inTransaction(this.#client)) {
      throw inTransactionError(request, `ran inside a transaction, so its answer is not taken: ${IN_TRANSACTION_WORDS}`);
    }
    return readRows(request, result?.rows);
  }

  // A method applied to an object this class did not make rejects with ERR_THIS_TYPE.
  static {
    guardThis(PostgresStore, (o) => #client in o);
  }
}

/**
 * Before migrate() creates or alters anything: when `table` exists, its columns (information_schema)
 * must be exactly one of the `layouts` (each a list of "name type"), in any order. Otherwise an
 * unrelated table of that name would be altered (ADD COLUMN) and every later statement would
 * fail: refused with an Error coded ERR_TABLE_SCHEMA naming the table, the columns found and
 * those expected (`table`, `found`, `expected` on the error), and nothing is changed.
 */
async function checkColumns(client, store, table, layouts, older) {
  const result = await client.query({ text: TABLE_COLUMNS_SQL, values: [table] });
  const row = result?.rows?.[0];
  if (row === undefined || row.found !== true) return; // no such table: created next
  const found = Array.isArray(row.columns) ? row.columns.map(String) : [];
  const same = (layout) => layout.length === found.length && layout.every((c) => found.includes(c));
  if (layouts.some(same)) return;
  const list = (cols) => `(${cols.join(", ")})`;
  const err = new Error(
    `${store}.migrate: table ${table} exists and is not ${store === "PostgresStore" ? "a lease table" : "a fenced table"}: ` +
      `its columns are ${found.length === 0 ? "none" : list(found)}; expected ${list(layouts[0])}` +
      (older ? `, or ${list(layouts[1])} (${older})` : "") +
      `. Nothing was created or altered: pass options.table naming a table of its own (a new name is created by migrate())`,
  );
  err.code = "ERR_TABLE_SCHEMA";
  err.table = table;
  err.found = found;
  err.expected = layouts[0];
  throw err;
}

function readRows(request, rows) {
  const unreadable = () => storeError("PostgresStore", request, undefined, `unreadable result rows ${describe(rows)}`);
  if (!Array.isArray(rows)) throw unreadable();
  const row = rows[0];
  if (request.type === "Acquire") {
    // No row: a concurrent first insert of this key won and is not in this statement's snapshot.
    if (row === undefined) return { type: "Held" };
    if (row.outcome === "Granted" && /^\d+$/.test(row.token)) {
      return { type: "Granted", token: BigInt(row.token), ttl_ms: request.ttl_ms };
    }
    if (row.outcome === "Held") {
      const held = { type: "Held" };
      if (typeof row.holder === "string") held.holder = row.holder;
      // Read from the statement's snapshot: under a race it can be a version that already
      // lapsed (the lock-checked latest one is valid), so a non-positive remaining is left out.
      const remaining = Math.round(Number(row.remaining_ms) * 1000) / 1000;
      if (row.remaining_ms !== null && Number.isFinite(remaining) && remaining > 0) held.remaining_ms = remaining;
      return held;
    }
    throw unreadable();
  }
  const outcome = row?.outcome;
  if (request.type === "Renew" && outcome === "Renewed") return { type: "Renewed", token: request.token, ttl_ms: request.ttl_ms };
  if (request.type === "Release" && outcome === "Released") return { type: "Released" };
  if (REASONS.has(outcome)) return { type: "Rejected", reason: outcome };
  throw unreadable();
}

/**
 * A PostgreSQL row guarded by fencing tokens (design rule 1): one row per `key` in `table`
 * (default "fenced_resource"), written only by a token >= the highest it has seen, with the
 * answer `{ accepted, presented, required }` from the same statement.
 */
export class PostgresFencedTable {
  #client;
  #table;
  #key;
  #write;
  #read;

  /**
   * @param {{ client: object, key: string, table?: string }} options `key`: the protected
   *   row; `table` (default "fenced_resource").
   */
  constructor(options) {
    options = readOptions("PostgresFencedTable", options, ["query"], CLIENT, ["client", "key", "table"]);
    this.#client = readingInput(() => checkClient("PostgresFencedTable", options.client));
    if (typeof options.key !== "string" || options.key === "") {
      throw usageError(TypeError, "ERR_STORE_OPTIONS", `new PostgresFencedTable(options): options.key must be a non-empty string, got ${describe(options.key)}`);
    }
    checkWellFormed("PostgresFencedTable", "key", options.key);
    if (options.key.includes("\0")) {
      throw usageError(TypeError, "ERR_STORE_OPTIONS", `new PostgresFencedTable(options): options.key ${describe(options.key)} ${NUL_WORDS(options.key.indexOf("\0"))}`);
    }
    const keyBytes = utf8Bytes(options.key);
    if (keyBytes > MAX_KEY_BYTES) {
      throw usageError(RangeError, "ERR_STORE_OPTIONS", `new PostgresFencedTable(options): options.key ${describe(options.key)} ${KEY_BYTES_WORDS(keyBytes)}`);
    }
    this.#key = options.key;
    const name = readStringOption("PostgresFencedTable", options, "table", "fenced_resource", TABLE_NAME, TABLE_TEXT);
    this.#table = quoteTable(name);
    this.#write = { name: statementName("fence", name), text: fenceWriteSql(this.#table) };
    this.#read = { name: statementName("fence_read", name), text: fenceReadSql(this.#table) };
  }

  /** The table's name as SQL (quoted), e.g. for a trigger or a join in your own statements. */
  get table() {
    return this.#table;
  }

  /** Creates the table if needed and this key's row (token 0, no value) if it is missing. */
  async migrate() {
    const [create, row] = fencedMigration(this.#table);
    try {
      await checkColumns(this.#client, "PostgresFencedTable", this.#table, [FENCED_COLUMNS]);
      await this.#client.query(create);
      await this.#client.query(row, [this.#key]);
    } catch (err) {
      if (err?.code === "ERR_TABLE_SCHEMA") throw err;
      throw storeError("PostgresFencedTable", { type: "migrate", key: this.#key }, err);
    }
  }

  /**
   * Writes the string `value` if `token` >= the highest token seen: one UPDATE. `null` is
   * refused: the column's NULL is the row before any write, so read() could not tell them apart.
   */
  async write(token, value) {
    readToken("PostgresFencedTable.write", token);
    if (value === null) {
      throw usageError(TypeError, "ERR_VALUE_TYPE", 'PostgresFencedTable.write: the value must be a string, got null: read() gives a never-written row\'s value as undefined, and a null would read back the same (write "" for an empty value)');
    }
    if (typeof value !== "string") {
      throw usageError(TypeError, "ERR_VALUE_TYPE", `PostgresFencedTable.write: the value must be a string, got ${describe(value)}`);
    }
    const why = notWellFormed(value);
    if (why) throw usageError(TypeError, "ERR_VALUE_TYPE", `PostgresFencedTable.write: the value ${describe(value)} ${why}`);
    if (value.includes("\0")) {
      throw usageError(TypeError, "ERR_VALUE_TYPE", `PostgresFencedTable.write: the value ${describe(value)} ${NUL_WORDS(value.indexOf("\0"))}`);
    }
    return this.#fence("write", token, value, true);
  }

  /**
   * Raises the highest token to `token` without writing: a new leader installs its generation
   * and waits for this confirmation before it acts (design rule 1).
   */
  async establish(token) {
    readToken("PostgresFencedTable.establish", token);
    return this.#fence("establish", token, null, false);
  }

  /** Whether `token` would be accepted now; changes nothing. */
  async check(token) {
    readToken("PostgresFencedTable.check", token);
    const { highestToken } = await this.read();
    return fenceResult(token >= highestToken, token, highestToken);
  }

  /** `{ highestToken, value }`: the highest token seen and the last value written (undefined before any). */
  async read() {
    let result;
    try {
      result = await this.#client.query({ ...this.#read, values: [this.#key] });
    } catch (err) {
      throw failed("PostgresFencedTable", { type: "read", key: this.#key }, err, this.#table);
    }
    const row = result.rows[0];
    if (!row) throw this.#missing("read");
    return { highestToken: BigInt(row.token), value: row.value ?? undefined };
  }

  #missing(what) {
    const err = storeError(
      "PostgresFencedTable",
      { type: what, key: this.#key },
      undefined,
      `${this.#table} has no row for this key: call migrate() first`,
    );
    err.code = "ERR_FENCED_ROW_MISSING";
    return err;
  }

  async #fence(what, token, value, setValue) {
    let result;
    try {
      result = await this.#client.query({ ...this.#write, values: [this.#key, String(token), value, setValue] });
    } catch (err) {
      throw failed("PostgresFencedTable", { type: what, key: this.#key }, err, this.#table);
    }
    const row = result.rows[0];
    if (!row) throw this.#missing(what);
    return fenceResult(row.accepted === true, token, BigInt(row.required));
  }

  // A method applied to an object this class did not make rejects with ERR_THIS_TYPE.
  static {
    guardThis(PostgresFencedTable, (o) => #client in o);
  }
}
