// Types of `tenure/etcd`: EtcdStore over an `etcd3` client.
// These classes declare no [Symbol.dispose] / [Symbol.asyncDispose] (no `using`: the client is
// yours to close). The types they import (./stores/protocol.js: the wasm classes' and
// LeaderElection's declarations) do declare them, so the disposable lib is referenced here
// too, whatever the project's own `lib` or `target` says.
/// <reference lib="esnext.disposable" />
import type { Etcd3 } from "etcd3";
import type { Store, StoreProtocolRequest, StoreReply } from "./stores/protocol.js";

export type { StoreAdapterError } from "./stores/protocol.js";

export interface EtcdStoreOptions {
  /**
   * Your `Etcd3` client (`new Etcd3({ hosts })`), or a namespace of it
   * (`etcd.namespace("app1/")`: every key then starts with `app1/`); the store never closes it.
   */
  client: Pick<Etcd3, "kv" | "leaseClient">;
  /** Starts every key, after the client's namespace if any (default "tenure/"). */
  prefix?: string;
  /** Bounds each etcd call, as a gRPC deadline: whole ms from 1 to 2147483647 (default 5000). */
  timeoutMs?: number;
}

/**
 * A lease store on etcd v3: an etcd lease plus a key created by a transaction only when
 * absent. Tokens are the key's create revision: strictly increasing on every new grant and
 * never reused, but not +1. Ttls are whole seconds: `ttl_ms` is rounded up (and raised to the
 * cluster's minimum lease ttl) and the granted ttl is reported back.
 */
export declare class EtcdStore implements Store {
  constructor(options: EtcdStoreOptions);
  /** Nothing to create on etcd. */
  migrate(): Promise<void>;
  send(request: StoreProtocolRequest): Promise<StoreReply>;
}
