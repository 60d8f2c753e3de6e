// Types of `tenure/testing`, the conformance kit for store adapters.
// This module declares no classes and no [Symbol.dispose] / [Symbol.asyncDispose]. The types it
// imports (../election/index.js: LeaderElection's declarations) do declare them, so the
// disposable lib is referenced here too, whatever the project's own `lib` or `target` says.
/// <reference lib="esnext.disposable" />
import type { Store, StoreReply, StoreProtocolRequest } from "../election/index.js";

/** Where checkStoreContract reports each case to node:test (the test's context `t`). */
export interface SubtestHost {
  test(name: string, fn: () => void): Promise<unknown>;
}

export interface ContractOptions {
  /** The ttl asked in every case, ms, above 0 and at most 3600000, whole microseconds [300]; waits use the ttl the store reports, which must be at most twice the ttl asked plus clockResolutionMs (more fails the case, naming both). */
  ttlMs?: number;
  /** "consecutive": each new grant is exactly +1 (MemoryStore, Redis, PostgreSQL); "increasing": only strictly greater ["consecutive"]. */
  numbering?: "consecutive" | "increasing";
  /** The store clock's resolution, ms, from 0 to 60000: widens waits past expiry [1]. */
  clockResolutionMs?: number;
  /** How long one request may take before the case fails, ms, above 0 and at most 2147483647 [2000]. */
  requestTimeoutMs?: number;
  /** Prefix of the keys used [a random one per run]. */
  keyPrefix?: string;
  /** node:test context: each case is also reported as a subtest. */
  t?: SubtestHost;
  /** Run only these cases: a non-empty list of names from `contractCases` (another name is refused, ERR_VARIANT). */
  only?: string[];
  /** Close each store makeStore returned (once, at the end) [true]; false when you close it yourself. */
  closeStores?: boolean;
  /** How long each store's close() may take, ms, above 0 and at most 2147483647 [5000]; past it the report has a `closeFailures` entry. */
  closeTimeoutMs?: number;
  /** How long makeStore() may take to hand over a store, ms, above 0 and at most 2147483647 [10000]; past it each case fails with `ERR_MAKE_STORE_TIMEOUT`. */
  makeStoreTimeoutMs?: number;
}

/** makeStore() threw or rejected (`ERR_MAKE_STORE_FAILED`, with `cause`), did not settle within makeStoreTimeoutMs (`ERR_MAKE_STORE_TIMEOUT`), or handed over something without a send(request) method (`ERR_MAKE_STORE_TYPE`). */
export interface MakeStoreFailure {
  /** The factory: "makeStore (<its function name>)", or "makeStore" for an anonymous one. */
  store: string;
  code: "ERR_MAKE_STORE_FAILED" | "ERR_MAKE_STORE_TIMEOUT" | "ERR_MAKE_STORE_TYPE";
  error: string;
  cause?: unknown;
}

/** A store whose close() did not settle within closeTimeoutMs: the run reports it rather than hang. */
export interface CloseFailure {
  /** The store, by its class ("RedisStore", "the store" for a plain object; "RedisStore (made for <case>)" when makeStore made several). */
  store: string;
  code: "ERR_STORE_CLOSE_TIMEOUT";
  error: string;
}

export interface ContractCaseResult {
  name: string;
  /** The rule the case checks, in words. */
  rule: string;
  ok: boolean;
  /** Set when the case could not run because makeStore() failed: "ERR_MAKE_STORE_FAILED", "ERR_MAKE_STORE_TIMEOUT" or "ERR_MAKE_STORE_TYPE" (not a store). */
  code: "ERR_MAKE_STORE_FAILED" | "ERR_MAKE_STORE_TIMEOUT" | "ERR_MAKE_STORE_TYPE" | undefined;
  /** The first broken rule, or why the case could not run. */
  error: string | undefined;
  /** Every exchange, one line each: "A Renew #3 ttl_ms 300 -> Renewed #3 ttl_ms 300". */
  saw: string[];
  ms: number;
}

export interface ContractReport {
  ok: boolean;
  cases: ContractCaseResult[];
  /** Names of the failed cases. */
  failed: string[];
  /** Stores whose close() did not settle within closeTimeoutMs (each fails the report). */
  closeFailures: CloseFailure[];
  /** A readable report of every case. */
  text: string;
}

export declare function checkStoreContract(makeStore: () => Store | Promise<Store>, options?: ContractOptions): Promise<ContractReport>;

export interface ContractCase {
  name: string;
  rule: string;
}

/** The cases checkStoreContract runs, in order. */
export declare const contractCases: readonly ContractCase[];

export interface DifferentialOptions {
  /** Requests sent, a whole number from 1 to 1000000 [100]. */
  steps?: number;
  /** The ttl asked, ms, above 0 and at most 1800000 (a fifth of the requests ask twice it) [200]; a reported ttl above twice the ttl asked plus clockResolutionMs is a breach, and not believed. */
  ttlMs?: number;
  /** Seed of the random sequence, from 0n to 2n ** 64n - 1n (a number is refused: ERR_SEED_TYPE) [fresh; reported]. */
  seed?: bigint;
  clockResolutionMs?: number;
  numbering?: "consecutive" | "increasing";
  requestTimeoutMs?: number;
  keyPrefix?: string;
  /** Close the store at the end if it has close() [true]. */
  closeStores?: boolean;
  /** How long the store's close() may take, ms, above 0 and at most 2147483647 [5000]; past it the report has a `closeFailures` entry. */
  closeTimeoutMs?: number;
  /** How long makeStore() may take to hand over the store, ms, above 0 and at most 2147483647 [10000]; past it the report's `makeStoreFailure` says so. */
  makeStoreTimeoutMs?: number;
}

export type DifferenceKind = "numbering" | "clock" | "reason" | "breach";

export interface Difference {
  step: number;
  kind: DifferenceKind;
  note: string;
  request: StoreProtocolRequest;
  store: StoreReply | undefined;
  reference: unknown;
}

export interface DifferentialReport {
  /** No breach (numbering, clock and reason differences are tolerated), and the store closed in time. */
  ok: boolean;
  seed: bigint;
  steps: number;
  counts: Record<DifferenceKind, number>;
  /** The first 200 differences. */
  differences: Difference[];
  /** The store, if its close() did not settle within closeTimeoutMs (this fails the run). */
  closeFailures: CloseFailure[];
  /** Why no step ran: makeStore() threw, rejected, did not settle in time or handed over a non-store (this fails the run); `undefined` when it handed over a store. */
  makeStoreFailure: MakeStoreFailure | undefined;
}

export declare function runDifferential(makeStore: () => Store | Promise<Store>, options?: DifferentialOptions): Promise<DifferentialReport>;
