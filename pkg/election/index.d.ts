// Types of the driver layer: LeaderElection, the store protocol, MemoryStore, ShardedElection.
// The classes declare [Symbol.dispose] / [Symbol.asyncDispose] (`using`), so the types need the
// disposable lib whatever the project's own `lib` or `target` says.
/// <reference lib="esnext.disposable" />
import type { FencingToken, LeaseConfig, StepDownReason } from "../dist/tenure.js";

// ----- the store protocol (README "The store contract") -----

/** Why a store refused; "Unknown" when it cannot say. */
export type StoreRejectReason = "NotHolder" | "TokenMismatch" | "Expired" | "TokensExhausted" | "Unknown";

/** What LeaderElection asks of a store. `holder` is the nodeId, `session` this instance's. */
export type StoreProtocolRequest =
  | { type: "Acquire"; key: string; holder: string; session: string; ttl_ms: number }
  | { type: "Renew"; key: string; holder: string; session: string; token: FencingToken; ttl_ms: number }
  | { type: "Release"; key: string; holder: string; session: string; token: FencingToken };

/** A store's answer; `ttl_ms` is the ttl the store recorded (it is believed). */
export type StoreReply =
  | { type: "Granted"; token: FencingToken; ttl_ms: number }
  | { type: "Held"; holder?: string; remaining_ms?: number }
  | { type: "Renewed"; token: FencingToken; ttl_ms: number }
  | { type: "Released" }
  | { type: "Rejected"; reason: StoreRejectReason };

/** A store: one async method; `undefined` means no answer (lost, or the store is down). */
export interface Store {
  send(request: StoreProtocolRequest): Promise<StoreReply | undefined>;
  close?(): Promise<void>;
}

// ----- errors -----

/** Codes of LeadershipExpiredError. A part of `TenureErrorCode`. */
export type LeadershipErrorCode = "ERR_LEADERSHIP_EXPIRED" | "ERR_NOT_LEADER" | "ERR_CLOSED";

/**
 * This node may not act as leader (assertLeadership, withLeadership, and the abort reason of
 * withLeadership's signal). `deadlineMs` is set when the local deadline passed.
 */
export declare class LeadershipExpiredError extends Error {
  readonly name: "LeadershipExpiredError";
  readonly code: LeadershipErrorCode;
  readonly key: string | undefined;
  readonly state: string | undefined;
  /** "DeadlinePassed", "NotLeading", "Closed", or the machine's step-down reason. */
  readonly reason: StepDownReason | "DeadlinePassed" | "NotLeading" | "Closed";
  readonly token: FencingToken | undefined;
  readonly deadlineMs: number | undefined;
  readonly nowMs: number | undefined;
}

/**
 * Codes of the errors the JavaScript layer (LeaderElection, ShardedElection, MemoryStore,
 * their metrics, the testing kit, and the guards on every class) throws or rejects with for
 * misuse: each is a TypeError, RangeError or Error as pkg/README.md's table says. Several are
 * shared with the machines' bindings (`MachineErrorCode`). A part of `TenureErrorCode`.
 */
export type DriverErrorCode =
  | "ERR_OBJECT_TYPE"
  | "ERR_UNKNOWN_KEY"
  | "ERR_INPUT_THREW"
  | "ERR_STORE_TYPE"
  | "ERR_STRING_TYPE"
  | "ERR_BOOLEAN_TYPE"
  | "ERR_ARRAY_TYPE"
  | "ERR_VARIANT"
  | "ERR_NODE_ID_TYPE"
  | "ERR_NODE_ID_RANGE"
  | "ERR_SEED_TYPE"
  | "ERR_SEED_RANGE"
  | "ERR_MILLIS_TYPE"
  | "ERR_MILLIS_RANGE"
  | "ERR_MILLIS_PRECISION"
  | "ERR_INTEGER_TYPE"
  | "ERR_INTEGER_RANGE"
  | "ERR_TOO_LARGE"
  | "ERR_CONFIG"
  | "ERR_EVENT_NAME"
  | "ERR_LISTENER_TYPE"
  | "ERR_FUNCTION_TYPE"
  | "ERR_RATE_TYPE"
  | "ERR_RATE_RANGE"
  | "ERR_DUPLICATE_KEY"
  | "ERR_UNKNOWN_SHARD"
  | "ERR_RESERVED_KEY"
  | "ERR_RESERVED_NODE_ID"
  | "ERR_PROM_CLIENT"
  | "ERR_METRIC_EXISTS"
  | "ERR_CLOSED"
  | "ERR_FREED"
  | "ERR_REENTRANT"
  | "ERR_THIS_TYPE"
  | "ERR_NOT_INITIALIZED";

/**
 * Codes the store adapters (`tenure/redis`, `tenure/postgres`, `tenure/etcd`) throw or reject
 * with: `ERR_STORE_OPTIONS` and `ERR_UNKNOWN_KEY` from a constructor, `ERR_STORE_REQUEST` for a
 * malformed request, `ERR_STORE` when the client or server failed, `ERR_STORE_IN_TRANSACTION`
 * from `PostgresStore` on a Client inside a transaction, the token codes and `ERR_VALUE_TYPE`
 * from a fenced resource, `ERR_FENCED_ROW_MISSING` before `migrate()`. A part of
 * `TenureErrorCode`.
 */
export type AdapterErrorCode =
  | "ERR_STORE_OPTIONS"
  | "ERR_UNKNOWN_KEY"
  | "ERR_INPUT_THREW"
  | "ERR_STORE_REQUEST"
  | "ERR_STORE"
  | "ERR_STORE_IN_TRANSACTION"
  | "ERR_TOKEN_TYPE"
  | "ERR_TOKEN_RANGE"
  | "ERR_VALUE_TYPE"
  | "ERR_FENCED_ROW_MISSING"
  | "ERR_TABLE_SCHEMA";

/** The code of a `closeFailures` entry of a `tenure/testing` report (a store's close() that did not settle). A part of `TenureErrorCode`. */
export type TestingFailureCode = "ERR_STORE_CLOSE_TIMEOUT" | "ERR_MAKE_STORE_FAILED" | "ERR_MAKE_STORE_TIMEOUT" | "ERR_MAKE_STORE_TYPE";

/** Codes of the `error` event (StoreError). A part of `TenureErrorCode`. */
export type StoreErrorCode =
  | "ERR_STORE_THREW"
  | "ERR_STORE_REJECTED"
  | "ERR_STORE_TIMEOUT"
  | "ERR_STORE_NO_ANSWER"
  | "ERR_STORE_REPLY"
  | "ERR_STORE_CONTRACT"
  | "ERR_TOKENS_EXHAUSTED"
  | "ERR_HOLDER_CLASH"
  | "ERR_LISTENER";

/** A store failure or an unreadable answer: the payload of the `error` event. */
export declare class StoreError extends Error {
  readonly name: "StoreError";
  readonly code: StoreErrorCode;
  readonly key: string;
  /** What was sent, if the error concerns a request. */
  readonly request: StoreProtocolRequest | undefined;
  /** What came back (the offending value), if anything. */
  readonly reply: unknown;
}

// ----- LeaderElection -----

/** The machine's knobs, camelCased; each ms default scales with ttlMs (ttl/10; jitter ttl/20). Each may be
 * absent, undefined or null: its default, in brackets. */
export interface ElectionTuning {
  /** Lease length asked of the store, ms, at most 2147483647 (the longest timer) [10000]. */
  ttlMs?: number | null;
  /** Subtracted from the ttl for the local deadline (design rule 4) [ttl/10]. */
  safetyMarginMs?: number | null;
  /** From a confirmed request's send time to the next renewal [null: ttl/3]. */
  renewIntervalMs?: number | null;
  /** Longest expected round trip to the store [ttl/10]. */
  maxRoundTripMs?: number | null;
  /** Clock-rate difference bound with the store, ppm [10000]. */
  maxDriftPpm?: number | null;
  /** Base time between acquisition attempts [ttl/10]. */
  retryIntervalMs?: number | null;
  /** Extra per-attempt delay drawn from [0, retryJitterMs) [ttl/20]; at most the longer of ttlMs and retryIntervalMs (ERR_MILLIS_RANGE beyond). */
  retryJitterMs?: number | null;
  /** How long a request waits for its answer before it counts as failed [ttl/10]. */
  requestTimeoutMs?: number | null;
  /** Whether writes present the token [true]. */
  fencing?: boolean | null;
  /** Seed of the retry-jitter PRNG [fresh]. */
  seed?: bigint | null;
}

/** A prom-client Registry: one without each of these methods is refused (ERR_PROM_CLIENT, naming the missing ones). */
export interface PromRegistry {
  registerMetric(metric: object): void;
  getSingleMetric(name: string): object | undefined;
  removeSingleMetric(name: string): void;
  metrics(): Promise<string>;
}

export interface LeaderElectionOptions extends ElectionTuning {
  /** Where the lease lives. */
  store: Store;
  /** The lease's name. */
  key: string;
  /** This node's id [a random UUID]; a bigint is sent as its decimal string. A string of 1 to 65536 UTF-16 code units (longer: ERR_TOO_LARGE), well-formed. */
  nodeId?: string | bigint;
  /** Also expose the metrics on this prom-client registry (Node; prom-client installed). One that already has a `leader_election_*` metric tenure did not register is refused (ERR_METRIC_EXISTS): use a Registry of its own; so is one with an open election of the same key and nodeId. */
  registry?: PromRegistry;
  /** Default bound of close()'s wait for work in flight [ttlMs; null too]. */
  closeTimeoutMs?: number | null;
}

/**
 * What campaign() resolves with: elected; or the first attempt answered without a grant
 * (`holder`: the holder the store named, if it did); or the first attempt failed (`error`: the
 * StoreError also emitted as "error", such as ERR_STORE_TIMEOUT when the store did not answer).
 * Contending goes on in the background in every case.
 */
export type CampaignResult =
  | { leader: true; token: FencingToken }
  | { leader: false; holder: string | undefined; error?: undefined }
  | { leader: false; holder: undefined; error: StoreError };

export interface ElectedEvent {
  key: string;
  token: FencingToken;
}

export interface LostEvent {
  key: string;
  token: FencingToken;
  reason: StepDownReason;
}

export interface HeldEvent {
  key: string;
  /** The holder the store named, if it did. */
  holder: string | undefined;
}

/**
 * The events and their payloads. A listener that throws never breaks the election: an
 * `elected`, `lost` or `held` listener's throw becomes an `error` event (ERR_LISTENER); an
 * `error` listener's is printed once per election (console.error) and not again.
 */
export interface LeaderElectionEvents {
  elected: ElectedEvent;
  lost: LostEvent;
  held: HeldEvent;
  error: StoreError;
}

/** The plain metrics snapshot; the field names are the Prometheus metric names. */
export interface ElectionMetricsSnapshot {
  labels: { key: string; node: string };
  /** 1 when `isLeader` is true at the moment of the snapshot (or scrape): 0 past the local deadline, even before the step-down has run. */
  leader_election_is_leader: 0 | 1;
  leader_election_elections_total: number;
  /** The current or last leadership's token (0n before the first). */
  leader_election_fencing_token: FencingToken;
  leader_election_leadership_lost_total: number;
  leader_election_leadership_lost_by_reason: Partial<Record<StepDownReason, number>>;
  leader_election_renewal_failures_total: number;
  /** Seconds led, each leadership counted up to its end or its local deadline, whichever came first. */
  leader_election_leader_seconds_total: number;
}

export interface LeadershipContext {
  token: FencingToken;
  /** Aborted (reason: a LeadershipExpiredError) the moment leadership ends. */
  signal: AbortSignal;
}

/** A driver over one LeaseCandidate: contends for `key` at `store`, renews, steps down. */
export declare class LeaderElection {
  constructor(options: LeaderElectionOptions);
  readonly key: string;
  readonly nodeId: string;
  readonly session: string;
  readonly state: "Follower" | "Campaigning" | "Leader" | "Stopped";
  readonly isLeader: boolean;
  readonly fencingToken: FencingToken | undefined;
  readonly leaseDeadlineMs: number | undefined;
  readonly config: LeaseConfig;
  on<E extends keyof LeaderElectionEvents>(event: E, listener: (payload: LeaderElectionEvents[E]) => void): this;
  once<E extends keyof LeaderElectionEvents>(event: E, listener: (payload: LeaderElectionEvents[E]) => void): this;
  off<E extends keyof LeaderElectionEvents>(event: E, listener: (payload: LeaderElectionEvents[E]) => void): this;
  campaign(): Promise<CampaignResult>;
  assertLeadership(): FencingToken;
  withLeadership<T>(fn: (ctx: LeadershipContext) => T | Promise<T>): Promise<T>;
  /** The resource refused this leader's token: step down ("Fenced"). A rejection whose `required` is not above `presented` is refused (RangeError ERR_TOKEN_RANGE), leadership kept. */
  reportFenced(rejection: { accepted?: false; reason?: "stale fencing token"; presented: FencingToken; required: FencingToken }): void;
  release(): Promise<void>;
  close(options?: { timeoutMs?: number }): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
  metrics(): ElectionMetricsSnapshot;
}

// ----- MemoryStore -----

export interface MemoryStoreOptions {
  /** One-way delay of each leg, whole ms from 0 to 2147483647, fixed or drawn from [min, max] [0]. */
  latencyMs?: number | [number, number];
  /** Chance in [0, 1] that a request or its reply is lost (answer: undefined) [0]. */
  lossRate?: number;
  /** Seed of the latency/loss draws, from 0n to 2n ** 64n - 1n (a number is refused: ERR_SEED_TYPE) [fresh; reported as `seed`]. */
  seed?: bigint;
}

/** The in-memory store over LeaseStore, with its own monotonic clock. */
export declare class MemoryStore implements Store {
  constructor(options?: MemoryStoreOptions);
  readonly seed: bigint;
  readonly now: number;
  readonly available: boolean;
  setAvailable(up: boolean): void;
  send(request: StoreProtocolRequest): Promise<StoreReply | undefined>;
  holder(key: string): { holder: string; session: string; token: FencingToken; expires_at_ms: number } | undefined;
  lastToken(key: string): FencingToken | undefined;
  keys(): string[];
  close(): Promise<void>;
}

// ----- ShardedElection -----

export interface ShardedElectionOptions extends ElectionTuning {
  store: Store;
  /** The shards: one lease key each, none twice (ERR_DUPLICATE_KEY), none under "<group>/member/" (ERR_RESERVED_KEY). */
  keys: readonly string[];
  /** This process's id, the same for every key; not "tenure/member-scan" (ERR_RESERVED_NODE_ID), the member scans' holder name. */
  nodeId?: string | bigint;
  /** The most shards this process leads at once [Infinity]; the fair share caps it too. */
  maxLeading?: number;
  /** How often a process counts the live members (one Acquire per member slot), ms from 1 to 2147483647 [ttlMs]. Checked, like every option, before any key's election is made. */
  probeIntervalMs?: number;
  /** Prefix of the member-slot keys "<group>/member/<set>/<i>" ["shards"], where <set> is a hash of the sorted keys: only processes over the same key set (in any order) count each other. */
  group?: string;
  closeTimeoutMs?: number | null;
  registry?: PromRegistry;
}

export interface ShardedElectionEvents {
  elected: ElectedEvent;
  lost: LostEvent;
  error: StoreError;
}

/** Contends for a set of keys from one process, spreading them over the live processes. */
export declare class ShardedElection {
  constructor(options: ShardedElectionOptions);
  readonly nodeId: string;
  /** The keys this process leads now. */
  readonly leading: string[];
  /** How many keys this process aims to lead: min(maxLeading, ceil(keys / live)) for the first (keys % live) members in member-slot order, min(maxLeading, floor(keys / live)) for the others (ceil while it holds no member slot); 0 before the first count. */
  readonly share: number;
  /** Live processes (this one included) at the last count, undefined before it. */
  readonly members: number | undefined;
  /** That key's LeaderElection; throws RangeError ERR_UNKNOWN_SHARD for a string not in `keys`, TypeError ERR_STRING_TYPE for anything but a string. */
  election(key: string): LeaderElection;
  on<E extends keyof ShardedElectionEvents>(event: E, listener: (payload: ShardedElectionEvents[E]) => void): this;
  once<E extends keyof ShardedElectionEvents>(event: E, listener: (payload: ShardedElectionEvents[E]) => void): this;
  off<E extends keyof ShardedElectionEvents>(event: E, listener: (payload: ShardedElectionEvents[E]) => void): this;
  /** Joins and contends; a second call does nothing. Throws LeadershipExpiredError `ERR_CLOSED` after close(). */
  start(): void;
  close(options?: { timeoutMs?: number }): Promise<void>;
  metrics(): ElectionMetricsSnapshot[];
}
