// Types of `tenure/postgres`: PostgresStore and PostgresFencedTable over a `pg` Pool or Client.
// These classes declare no [Symbol.dispose] / [Symbol.asyncDispose] (no `using`: the client is
// yours to close). The types they import (./stores/protocol.js: the wasm classes' and
// LeaderElection's declarations) do declare them, so the disposable lib is referenced here
// too, whatever the project's own `lib` or `target` says.
/// <reference lib="esnext.disposable" />
import type { FenceResult, FencedState, Store, StoreProtocolRequest, StoreReply } from "./stores/protocol.js";

export type { FenceResult, FencedState, StoreAdapterError } from "./stores/protocol.js";

/** A query as `pg` takes it: a named (prepared) statement and its values. */
export interface PgQuery {
  name?: string;
  text: string;
  values?: unknown[];
}

/** What the adapters need of `pg`: a `Pool`, or a connected `Client`, is one. */
export interface PgQueryable {
  query(query: PgQuery): Promise<{ rows: Array<Record<string, unknown>> }>;
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

export interface PostgresStoreOptions {
  client: PgQueryable;
  /** The lease table (default "cluster_leadership"); `schema.table` works too. */
  table?: string;
}

/**
 * A lease store on PostgreSQL (design rule 9): one atomic statement per request, tokens
 * exactly +1 per new grant (a bigint: exhausted at 2^63 - 1), expiry on the database's clock
 * (`clock_timestamp()`, whole microseconds). Rejects with `ERR_STORE_REQUEST` (a key is at
 * most 2,048 bytes in UTF-8 here), `ERR_STORE`, or `ERR_STORE_IN_TRANSACTION` (the client is
 * a `pg` Client inside a transaction: each lease statement must commit on its own).
 */
export declare class PostgresStore implements Store {
  constructor(options: PostgresStoreOptions);
  /** CREATE TABLE IF NOT EXISTS cluster_leadership (...), adding session_id to the older layout. A table of that name with other columns is refused (ERR_TABLE_SCHEMA), changing nothing. */
  migrate(): Promise<void>;
  send(request: StoreProtocolRequest): Promise<StoreReply>;
}

export interface PostgresFencedTableOptions {
  client: PgQueryable;
  /** The protected row's key: at most 2,048 bytes in UTF-8 (ERR_STORE_OPTIONS). */
  key: string;
  /** Default "fenced_resource". */
  table?: string;
}

/**
 * A PostgreSQL row guarded by fencing tokens (design rule 1): `write` is one
 * `UPDATE ... WHERE fencing_token <= $token` that also answers `required`.
 * Rejects with `ERR_TOKEN_TYPE`/`ERR_TOKEN_RANGE`, `ERR_VALUE_TYPE`, `ERR_STORE`, or
 * `ERR_FENCED_ROW_MISSING` (no row for the key: call migrate()).
 */
export declare class PostgresFencedTable {
  constructor(options: PostgresFencedTableOptions);
  /** The table's name as quoted SQL, for your own statements (a trigger, a join). */
  readonly table: string;
  /** Creates the table if needed and this key's row (token 0). A table of that name with other columns is refused (ERR_TABLE_SCHEMA), changing nothing. */
  migrate(): Promise<void>;
  /**
   * Writes `value` if `token` is at least the highest token seen. A string only: `null` is
   * refused (`ERR_VALUE_TYPE`), since read() gives a never-written row's value as undefined.
   */
  write(token: bigint, value: string): Promise<FenceResult>;
  /** Raises the highest token without writing; await it before the new leader acts. */
  establish(token: bigint): Promise<FenceResult>;
  check(token: bigint): Promise<FenceResult>;
  read(): Promise<FencedState>;
}
