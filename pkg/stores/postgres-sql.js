// The SQL behind tenure/postgres. Each request is ONE statement, atomic on its own (no
// explicit transaction, so it also works on a pooled connection).
//
// The clock: one `clock_timestamp()` reading per statement, taken in the `clock` CTE
// (MATERIALIZED: read once, so WHERE, SET and RETURNING all see the same instant). Not `now()`:
// that is the start of the *transaction*, and on a client that is inside a transaction the
// user opened it can be seconds old, which would grant a lease ending before the holder's own
// deadline. A statement that waits for a row lock judges with its start time, which is never
// later than the truth: it may answer Held a moment too long, never grant early.
//
// Tokens are compared as numeric, so a request token above bigint's range (2^63 - 1) is simply
// not the stored one; the stored counter is a bigint and runs out there (TokensExhausted).

import { createHash } from "node:crypto";

/** PostgreSQL keeps the first 63 bytes of a name (NAMEDATALEN - 1), prepared statements' too. */
export const MAX_NAME_BYTES = 63;

/**
 * The prepared statement's name for one statement (`kind`: acquire, renew, release, fence,
 * fence_read) on one table, unique per (kind, table) and at most 63 bytes. PostgreSQL cuts a
 * longer name to 63 bytes, so two tables sharing a 63-byte prefix got one statement ("prepared
 * statement ... already exists", 42P05, on a shared connection). `:` cannot appear in a table
 * name (letters, digits, _ and one .), so `tenure_fence:read_x` and `tenure_fence_read:x` differ;
 * past 63 bytes the name keeps the table's start, then `~` and 16 hex digits of its SHA-256.
 */
export function statementName(kind, table) {
  const whole = `tenure_${kind}:${table}`;
  if (Buffer.byteLength(whole) <= MAX_NAME_BYTES) return whole;
  const hash = createHash("sha256").update(table).digest("hex").slice(0, 16);
  const head = `tenure_${kind}:`;
  return `${head}${table.slice(0, MAX_NAME_BYTES - head.length - 1 - hash.length)}~${hash}`;
}

/** `"name"` or `"schema"."name"` from a validated identifier. */
export function quoteTable(name) {
  return name
    .split(".")
    .map((part) => `"${part}"`)
    .join(".");
}

/** The lease table (the sources' `cluster_leadership`, plus the session of design rule 8). */
export function leaseMigration(table) {
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      resource      text        PRIMARY KEY,
      holder_id     text        NOT NULL,
      session_id    text        NOT NULL DEFAULT '',
      fencing_token bigint      NOT NULL CHECK (fencing_token > 0),
      acquired_at   timestamptz NOT NULL,
      expires_at    timestamptz NOT NULL
    )`,
    // A table made from the sources' schema lacks the session: add it.
    `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS session_id text NOT NULL DEFAULT ''`,
  ];
}

/**
 * The columns of the table `$1` names (as quoted SQL text: `"name"` or `"schema"."name"`, resolved
 * as the statements resolve it, on the search_path), from information_schema, in order: one row,
 * `found` (whether such a table exists) and `columns` (`"name type"`, e.g. `"resource text"`).
 */
export const TABLE_COLUMNS_SQL = `
SELECT to_regclass($1) IS NOT NULL AS found,
       ARRAY(SELECT c.column_name::text || ' ' || c.data_type::text
               FROM pg_catalog.pg_class r
               JOIN pg_catalog.pg_namespace n ON n.oid = r.relnamespace
               JOIN information_schema.columns c ON c.table_schema = n.nspname AND c.table_name = r.relname
              WHERE r.oid = to_regclass($1)
              ORDER BY c.ordinal_position) AS columns`;

/** The lease table's columns as information_schema names their types (leaseMigration's). */
export const LEASE_COLUMNS = [
  "resource text",
  "holder_id text",
  "session_id text",
  "fencing_token bigint",
  "acquired_at timestamp with time zone",
  "expires_at timestamp with time zone",
];
/** The older layout (the sources' schema, no session) that leaseMigration upgrades. */
export const LEASE_COLUMNS_BEFORE_SESSION = LEASE_COLUMNS.filter((c) => !c.startsWith("session_id "));
/** The fenced table's columns (fencedMigration's). */
export const FENCED_COLUMNS = ["key text", "fencing_token numeric", "value text", "updated_at timestamp with time zone"];

const INTERVAL = (param) => `(${param}::double precision * interval '1 millisecond')`;

/**
 * Acquire ($1 resource, $2 holder, $3 session, $4 ttl ms): insert-or-update. A key seen the
 * first time is inserted with token 1; an expired or released lease is taken over with
 * token + 1; the valid holder's own lease is re-granted with the same token; otherwise the
 * row is left alone and the statement answers who holds it and for how long.
 */
export function acquireSql(table) {
  return `
WITH clock AS MATERIALIZED (SELECT clock_timestamp() AS now),
taken AS (
  INSERT INTO ${table} AS l (resource, holder_id, session_id, fencing_token, acquired_at, expires_at)
  SELECT $1, $2, $3, 1, c.now, c.now + ${INTERVAL("$4")} FROM clock c
  ON CONFLICT (resource) DO UPDATE SET
    fencing_token = CASE WHEN l.expires_at > EXCLUDED.acquired_at THEN l.fencing_token ELSE l.fencing_token + 1 END,
    acquired_at   = CASE WHEN l.expires_at > EXCLUDED.acquired_at THEN l.acquired_at ELSE EXCLUDED.acquired_at END,
    holder_id     = EXCLUDED.holder_id,
    session_id    = EXCLUDED.session_id,
    expires_at    = EXCLUDED.expires_at
  WHERE l.expires_at <= EXCLUDED.acquired_at
     OR (l.holder_id = EXCLUDED.holder_id AND l.session_id = EXCLUDED.session_id)
  RETURNING l.fencing_token
)
SELECT 'Granted' AS outcome, fencing_token::text AS token, NULL::text AS holder, NULL::double precision AS remaining_ms
  FROM taken
UNION ALL
SELECT 'Held', NULL, l.holder_id, GREATEST(0, EXTRACT(EPOCH FROM (l.expires_at - c.now)) * 1000)::double precision
  FROM ${table} l, clock c
 WHERE l.resource = $1 AND NOT EXISTS (SELECT 1 FROM taken)`;
}

/** Renew ($1 resource, $2 holder, $3 session, $4 token, $5 ttl ms): extends, never bumps. */
export function renewSql(table) {
  return `
WITH clock AS MATERIALIZED (SELECT clock_timestamp() AS now),
renewed AS (
  UPDATE ${table} l SET expires_at = c.now + ${INTERVAL("$5")}
    FROM clock c
   WHERE l.resource = $1 AND l.holder_id = $2 AND l.session_id = $3
     AND l.fencing_token::numeric = $4::numeric AND l.expires_at > c.now
  RETURNING l.fencing_token
)
SELECT CASE
         WHEN EXISTS (SELECT 1 FROM renewed) THEN 'Renewed'
         WHEN l.resource IS NULL OR l.holder_id <> $2 OR l.session_id <> $3 THEN 'NotHolder'
         WHEN l.fencing_token::numeric <> $4::numeric THEN 'TokenMismatch'
         ELSE 'Expired'
       END AS outcome
  FROM (SELECT 1) AS one LEFT JOIN ${table} l ON l.resource = $1`;
}

/**
 * Release ($1 resource, $2 holder, $3 session, $4 token): the lease ends now; the row (and so
 * the key's last token) stays. Releasing twice is harmless.
 */
export function releaseSql(table) {
  return `
WITH clock AS MATERIALIZED (SELECT clock_timestamp() AS now),
released AS (
  UPDATE ${table} l SET expires_at = LEAST(l.expires_at, c.now)
    FROM clock c
   WHERE l.resource = $1 AND l.holder_id = $2 AND l.session_id = $3
     AND l.fencing_token::numeric = $4::numeric
  RETURNING 1
)
SELECT CASE
         WHEN EXISTS (SELECT 1 FROM released) THEN 'Released'
         WHEN l.resource IS NULL OR l.holder_id <> $2 OR l.session_id <> $3 THEN 'NotHolder'
         ELSE 'TokenMismatch'
       END AS outcome
  FROM (SELECT 1) AS one LEFT JOIN ${table} l ON l.resource = $1`;
}

/** The fenced table: one protected row per key, the highest token seen and the value. */
export function fencedMigration(table) {
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      key           text          PRIMARY KEY,
      fencing_token numeric(20,0) NOT NULL DEFAULT 0 CHECK (fencing_token >= 0),
      value         text,
      updated_at    timestamptz   NOT NULL DEFAULT clock_timestamp()
    )`,
    `INSERT INTO ${table} (key) VALUES ($1) ON CONFLICT (key) DO NOTHING`,
  ];
}

/**
 * A fenced write ($1 key, $2 token, $3 value; $4 true = also set the value), the sources'
 * `UPDATE ... WHERE fencing_token <= :incoming_token`, answering in the same statement.
 * `current` locks the row and reads its latest version (FOR UPDATE re-reads a row a concurrent
 * writer changed), so `required` is the token the decision was made against.
 */
export function fenceWriteSql(table) {
  return `
WITH current AS (SELECT key, fencing_token FROM ${table} WHERE key = $1 FOR UPDATE),
written AS (
  UPDATE ${table} t
     SET fencing_token = $2::numeric,
         value         = CASE WHEN $4::boolean THEN $3::text ELSE t.value END,
         updated_at    = clock_timestamp()
    FROM current
   WHERE t.key = current.key AND t.fencing_token <= $2::numeric AND current.fencing_token <= $2::numeric
  RETURNING t.fencing_token
)
SELECT EXISTS (SELECT 1 FROM written) AS accepted, current.fencing_token::text AS required FROM current`;
}

/** A check ($1 key): the highest token and value, changing nothing. */
export function fenceReadSql(table) {
  return `SELECT fencing_token::text AS token, value FROM ${table} WHERE key = $1`;
}
