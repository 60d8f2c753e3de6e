// Types of `tenure/redis`: RedisStore and RedisFencedResource over a node-redis client.
// These classes declare no [Symbol.dispose] / [Symbol.asyncDispose] (no `using`: the client is
// yours to close). The types they import (./stores/protocol.js: the wasm classes' and
// LeaderElection's declarations) do declare them, so the disposable lib is referenced here
// too, whatever the project's own `lib` or `target` says.
/// <reference lib="esnext.disposable" />
import type { FenceResult, FencedState, Store, StoreProtocolRequest, StoreReply } from "./stores/protocol.js";

export type { FenceResult, FencedState, StoreAdapterError } from "./stores/protocol.js";

/**
 * What the adapters need of a node-redis (`redis` v4 or v5) client: `createClient()` after
 * `connect()` is one, and so is a v5 `createClientPool()` pool after `connect()`. A cluster
 * client (`createCluster`) and a Sentinel client (`createSentinel`) are refused at construction
 * (`ERR_STORE_OPTIONS`): their sendCommand takes routing arguments first.
 */
export interface RedisCommandClient {
  /**
   * The adapters pass a fresh array of strings. Declared mutable (`string[]`), not
   * `ReadonlyArray<string>`: node-redis v4's `createClient()` and v5's `createClientPool()`
   * take a mutable array, and TypeScript refuses a readonly array where a mutable one is asked.
   */
  sendCommand(args: string[]): Promise<unknown>;
}

export interface RedisStoreOptions {
  /** Your connected client; the store never connects, quits or reconfigures it. */
  client: RedisCommandClient;
  /** Starts every Redis key this store uses (default "tenure:"): `<prefix>{<key>}:lease` and `:live`. */
  prefix?: string;
}

/**
 * A lease store on Redis (design rule 9): tokens exactly +1 per new grant, from a counter
 * per key; expiry by Redis's clock in whole ms (PX; a fractional ttl_ms is rounded up and
 * reported back). Rejects with code `ERR_STORE_REQUEST` (bad request) or `ERR_STORE` (Redis failed).
 */
export declare class RedisStore implements Store {
  constructor(options: RedisStoreOptions);
  /** Nothing to create on Redis: loads the Lua scripts. */
  migrate(): Promise<void>;
  send(request: StoreProtocolRequest): Promise<StoreReply>;
}

export interface RedisFencedResourceOptions {
  client: RedisCommandClient;
  /** The resource's name: its Redis key is `<prefix>{<key>}:fenced`. */
  key: string;
  /** Default "tenure:". */
  prefix?: string;
}

/**
 * A resource on Redis guarded by fencing tokens (design rule 1): accepts a token >= the
 * highest seen, in one Lua check-and-set. Rejects with `ERR_TOKEN_TYPE`/`ERR_TOKEN_RANGE`
 * for a bad token, `ERR_VALUE_TYPE` for a value that is not a string, `ERR_STORE` if Redis fails.
 */
export declare class RedisFencedResource {
  constructor(options: RedisFencedResourceOptions);
  migrate(): Promise<void>;
  write(token: bigint, value: string): Promise<FenceResult>;
  /** Raises the highest token without writing: a new leader installs its generation. */
  establish(token: bigint): Promise<FenceResult>;
  check(token: bigint): Promise<FenceResult>;
  read(): Promise<FencedState>;
}
