//! TypeScript shapes of the `Simulation` class's inputs and outputs (convention 13).
//!
//! Scenarios and faults are JSON data (node numbers and ms as plain numbers), exactly the
//! CLI's scenario files; snapshots, trace events, violations and metrics are the simulator's
//! own serde forms, the CLI's JSON: node ids, terms, tokens, epochs, log indexes and message
//! ids are `number`s (all below 2^53) and times are ms `number`s. Unions are discriminated by `type` (faults) or
//! `event` (trace events, as in the CLI's `--trace` JSONL).

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(typescript_custom_section)]
const TS_SIMULATION: &'static str = r#"
/**
 * An election algorithm the simulator runs (the simulator's registry; "lease-no-margin" is
 * a teaching foil: leases without a safety margin, which break under clock drift).
 */
export type Algorithm = "lease-fencing" | "lease-unfenced" | "raft" | "bully" | "lease-no-margin";

/**
 * A process as scenario and fault JSON name it: a node number (1..=nodes), or the lease
 * world's "store" / "resource".
 */
export type ProcRef = number | "store" | "resource";

/** A process in live data (snapshots, events): a node id (1..=nodes), or "store" / "resource". */
export type ProcId = number | "store" | "resource";

/**
 * Algorithm parameters, all optional (omitted = the simulator's default). Keys that do not
 * apply to the scenario's algorithm are rejected (ERR_SCENARIO_RANGE).
 */
export interface ScenarioConfig {
  /** Raft: minimum election timeout T in ms; each wait is drawn from
   * [T, election_timeout_max_ms) (design rule 6). */
  election_timeout_ms?: number;
  /** Raft: exclusive upper end of the election-timeout range, ms (default 2T). */
  election_timeout_max_ms?: number;
  /** Raft and Bully: heartbeat interval, ms. */
  heartbeat_interval_ms?: number;
  /** Raft: PreVote (Ongaro's thesis, section 9.6). */
  pre_vote?: boolean;
  /** Raft: CheckQuorum (a leader that hears from no quorum for a timeout steps down). */
  check_quorum?: boolean;
  /** Raft: the leader proposes a command this often, ms (default 200). */
  propose_interval_ms?: number;
  /** Raft: the leader lease (needs check_quorum): a leader acts only while a quorum
   * acknowledged it within T less the drift bound (default false). */
  leader_lease?: boolean;
  /** Raft: the clock-rate difference the leader lease allows for, ppm (default 10000). */
  leader_lease_drift_ppm?: number;
  /** Lease: time to live, ms (default 2000). */
  ttl_ms?: number;
  /** Lease: safety margin, ms (design rules 4-5; default 300). */
  safety_margin_ms?: number;
  /** Lease: renewal interval, ms (default ttl/3). */
  renew_interval_ms?: number;
  /** Lease: retry interval while not leader, ms (default 250). */
  retry_interval_ms?: number;
  /** Lease: the leader writes to the fenced resource this often, ms (default 100). */
  write_interval_ms?: number;
  /** Lease: the clock-rate difference the safety margin must cover, ppm (design rule 5). */
  max_drift_ppm?: number;
  /** Lease: the round trip that renew interval + round trip must fit in ttl - margin, ms (rule 5; default 500). */
  max_round_trip_ms?: number;
  /**
   * Lease: the holder id every contender claims instead of its node id, the
   * misconfiguration of design rule 8; each is still its own session, so the store keeps all
   * but one out (and the others report a "holder-clash").
   */
  holder_id?: number;
  /**
   * Lease: the first fencing token the store issues (default 1), as a store continuing
   * from a predecessor that issued every token below it. At least 1.
   */
  first_token?: number;
  /** Bully: no heartbeat from the coordinator for this long (ms) starts an election. */
  failure_timeout_ms?: number;
  /** Bully: wait this long (ms) for an Answer from a higher id. */
  answer_timeout_ms?: number;
  /** Bully: after an Answer, wait this long (ms) for the Coordinator announcement. */
  coordinator_timeout_ms?: number;
}

/** Default behaviour of every link. */
export interface NetworkConfig {
  /** One-way latency range [min, max] in ms (default [1, 10]). */
  latency_ms?: [number, number];
  /** Loss probability in [0, 1] (default 0). */
  loss?: number;
  /** Duplication probability in [0, 1] (default 0). */
  duplicate?: number;
}

/** The node stops; its volatile state is lost, what it persisted survives. */
export interface CrashFault { type: "crash"; node: number }
/** A crashed node starts again from its persisted state (no-op if it is up). */
export interface RestartFault { type: "restart"; node: number }
/** The process does nothing for duration_ms: messages queue, timers fire late on resume. */
export interface PauseFault { type: "pause"; target: ProcRef; duration_ms: number }
/** Lease worlds: pause right after the node's next passing leadership check, before its write leaves (S01). */
export interface PauseAfterCheckFault { type: "pause-after-check"; node: number; duration_ms: number }
/** Symmetric partition: links between different groups are cut both ways. */
export interface PartitionFault { type: "partition"; groups: ProcRef[][] }
/** One-way cut: messages from every process in `from` to every process in `to` are lost. */
export interface PartitionOneWayFault { type: "partition-one-way"; from: ProcRef[]; to: ProcRef[] }
/** Cuts every link between the listed processes and all others. */
export interface IsolateFault { type: "isolate"; nodes: ProcRef[] }
/** Unblocks every link and restores default link behaviour. */
export interface HealFault { type: "heal" }
/** Sets the loss probability on every link from `from` to `to`. */
export interface LinkLossFault { type: "link-loss"; from: ProcRef[]; to: ProcRef[]; probability: number }
/** Sets the duplication probability on every link from `from` to `to`. */
export interface LinkDuplicateFault { type: "link-duplicate"; from: ProcRef[]; to: ProcRef[]; probability: number }
/** Sets the latency range (ms) on every link from `from` to `to`. */
export interface LinkLatencyFault { type: "link-latency"; from: ProcRef[]; to: ProcRef[]; min_ms: number; max_ms: number }
/** Steps the process's clock by offset_ms (negative holds the reading: clocks stay monotone). */
export interface ClockOffsetFault { type: "clock-offset"; target: ProcRef; offset_ms: number }
/** From now on the process's clock runs at 1 + ppm / 10^6 times true speed (|ppm| <= 500000). */
export interface ClockDriftFault { type: "clock-drift"; target: ProcRef; ppm: number }
/** The process's clock jumps forward by by_ms (S08 setup 2 when aimed at the store). */
export interface ClockJumpFault { type: "clock-jump"; target: ProcRef; by_ms: number }
/** Lease worlds: the store answers nothing for duration_ms. */
export interface StoreOutageFault { type: "store-outage"; duration_ms: number }

/**
 * The network loses one message in flight, by the id of its send event (ids replay with the
 * scenario; pass Number(m.id)). Injected for a message no longer in flight: ERR_FAULT_RANGE.
 */
export interface DropMessageFault { type: "drop-message"; id: number }
/**
 * Raft worlds: a client asks `node` to append `command` (an integer) to the log. A leader
 * appends it (node event "proposed", value = its index); another node refuses
 * ("proposal-refused", reason "not-leader" or "crashed").
 */
export interface ProposeFault { type: "propose"; node: number; command: number }

/** A fault, scheduled in a scenario or applied with Simulation.inject. */
export type Fault =
  | CrashFault
  | RestartFault
  | PauseFault
  | PauseAfterCheckFault
  | PartitionFault
  | PartitionOneWayFault
  | IsolateFault
  | HealFault
  | LinkLossFault
  | LinkDuplicateFault
  | LinkLatencyFault
  | ClockOffsetFault
  | ClockDriftFault
  | ClockJumpFault
  | StoreOutageFault
  | DropMessageFault
  | ProposeFault;

/** A fault at a true time (ms from the start of the run). */
export interface TimedFault {
  at_ms: number;
  fault: Fault;
}

/**
 * A whole run: the versioned JSON of the `tenure` CLI's scenario files. Unknown keys are
 * rejected everywhere; times are ms.
 */
export interface Scenario {
  version: 1;
  algorithm: Algorithm;
  /** Election nodes, ids 1..=nodes (at most 64); lease worlds add the store and resource. */
  nodes: number;
  config?: ScenarioConfig;
  network?: NetworkConfig;
  /** Every random choice derives from it. Absent: drawn from getrandom, see toJSON(). */
  /** A safe integer, a bigint, or a decimal string (for seeds above 2^53 in JSON text). */
  seed?: number | bigint | string;
  /** Length of the run, ms of true time. */
  duration_ms: number;
  faults?: TimedFault[];
}

/** What Simulation.toJSON returns: the scenario with its seed and every injected fault. */
export interface ScenarioJSON extends Scenario {
  config: ScenarioConfig;
  network: Required<NetworkConfig>;
  /** A number, or a decimal string above 2^53 - 1 so that JSON.stringify works (drawn seeds never are). */
  seed: number | string;
  faults: TimedFault[];
}

/** Whether a process runs. */
export type ProcStatus = "up" | "paused" | "crashed";

/** Role labels: Raft, Bully and lease contenders, plus the lease world's service processes. */
export type RoleLabel =
  | "Follower"
  | "PreCandidate"
  | "Candidate"
  | "Leader"
  | "Coordinator"
  | "Campaigning"
  | "Stopped"
  | "Crashed"
  | "store"
  | "resource";

/** What a role amounts to, the same words for every algorithm. */
export type RoleKind = "leader" | "candidate" | "follower" | "crashed" | "service";

/** Timer kinds a process can wait on. */
export type TimerKind =
  | "LeaderLease"
  | "Start"
  | "Election"
  | "Heartbeat"
  | "CheckQuorum"
  | "FailureDetector"
  | "AwaitAnswer"
  | "AwaitCoordinator"
  | "Retry"
  | "Renew"
  | "RequestTimeout"
  | "LeaseDeadline";

/** Message kinds on the simulated network. */
export type MessageKind =
  | "PreVote"
  | "RequestVote"
  | "PreVoteResponse"
  | "RequestVoteResponse"
  | "Heartbeat"
  | "AppendEntries"
  | "AppendEntriesResponse"
  | "Election"
  | "Answer"
  | "Coordinator"
  | "Acquire"
  | "Renew"
  | "Release"
  | "Granted"
  | "Held"
  | "Renewed"
  | "Released"
  | "Rejected"
  | "Establish"
  | "Established"
  | "Write"
  | "WriteResult";

/** Why a message was not delivered. */
export type DropReason = "partition" | "loss" | "crashed" | "outage" | "injected";

/** The next timer of a process. */
export interface TimerSnapshot {
  kind: TimerKind;
  /** When it fires, in true time (ms; an estimate through the process's clock). */
  deadline_ms: number;
  /** When it was armed, in true time (ms). */
  armed_ms: number;
  /** Its full wait on the process's own clock, ms: how long it ran when armed. */
  wait_ms: number;
}

/** One process in a snapshot. */
export interface NodeSnapshot {
  id: ProcId;
  role: RoleLabel;
  /** What the role amounts to ("crashed" while down). */
  role_kind: RoleKind;
  /** It acts as leader now: up, not paused, believing it leads (what split brain counts). */
  acting_leader: boolean;
  /** Raft term or Bully epoch. */
  term: number | null;
  /** Lease fencing token held. */
  token: number | null;
  /** The node it believes leads. */
  leader: number | null;
  status: ProcStatus;
  /** Its own clock's reading, ms. */
  clock_ms: number;
  /** A leading lease contender's deadline converted to true time, ms. */
  lease_deadline_ms: number | null;
  /**
   * Lease contenders: how long a lease is valid on the node's own clock from the send time
   * of the request that won or renewed it (ttl - safety margin), ms: the full span of the
   * time left until `lease_deadline_ms`. Null for other algorithms.
   */
  lease_validity_ms: number | null;
  next_timer: TimerSnapshot | null;
  /** Raft: log length. */
  log_len: number | null;
  /** Raft: commit index. */
  commit: number | null;
  /** Raft: the newest entries of its log (up to 24), oldest first; null otherwise. */
  log: LogEntry[] | null;
}

/** One Raft log entry. */
export interface LogEntry {
  /** Its index, from 1. */
  index: number;
  /** The term of the leader that appended it. */
  term: number;
  /** The client's command; null for the no-op a new leader appends. */
  command: number | null;
}

/** A message on the wire. */
export interface InFlightMessage {
  id: number;
  from: ProcId;
  to: ProcId;
  kind: MessageKind;
  /** Term, epoch or token carried. */
  value: number | null;
  /** True send time, ms. */
  send_ms: number;
  /** True arrival time, ms. */
  arrival_ms: number;
}

/** One message on the wire with every field (Simulation.message). */
export interface MessageDetail extends InFlightMessage {
  /**
   * The payload flattened to name: value pairs (term, prev_log_index, op.token, ...); lists
   * as JSON text, integers above 2^53 - 1 as decimal strings, durations in microseconds.
   */
  fields: Record<string, number | string | boolean | null>;
}

/** A recently dropped message. */
export interface DroppedMessage {
  id: number;
  from: ProcId;
  to: ProcId;
  kind: MessageKind;
  /** True time of the drop, ms. */
  time_ms: number;
  reason: DropReason;
}

/** The lease store. */
export interface StoreSnapshot {
  /** The valid holder on the store's clock. */
  holder: number | null;
  /** Its token. */
  token: number | null;
  /** Its expiry on the store's clock, ms. */
  expiry_ms: number | null;
  /** That expiry in true time, ms (an estimate through the store's clock). */
  expiry_true_ms: number | null;
  /** The TTL the valid holder's lease was granted or last renewed with, ms: the full span of the time left until `expiry_ms`. */
  ttl_ms: number | null;
  /** The last token issued. */
  last_token: number | null;
  /** False during an outage. */
  available: boolean;
}

/** One write judged by the fenced resource. */
export interface ResourceWrite {
  /** True time the resource judged it, ms. */
  time_ms: number;
  /** True time the write left its node, ms. */
  issued_ms: number;
  from: ProcId;
  /** The writer's fencing token (always recorded; presented only with fencing). */
  token: number;
  accepted: boolean;
  /** null when accepted; a rejection is always a stale fencing token (design rule 1). */
  reason: "stale fencing token" | null;
  /** Its token was below one the resource had already seen. */
  stale: boolean;
  /** It left its node after its lease had ended in true time. */
  late: boolean;
  /** The token presented, null without fencing. */
  presented: number | null;
  /** The highest token the resource had seen before this write. */
  required: number;
}

/** The fenced resource. */
export interface ResourceSnapshot {
  /** Highest token seen (design rule 1). */
  highest_token: number;
  /** Whether it checks tokens (lease-fencing) or accepts everything (lease-unfenced). */
  fenced: boolean;
  /** The latest writes (up to 32), oldest first. */
  recent_writes: ResourceWrite[];
}

/** An invariant (or liveness property) the checker watches. */
export type InvariantKind =
  | "election-safety"
  | "term-monotonic"
  | "log-matching"
  | "leader-completeness"
  | "single-valid-holder"
  | "token-monotonic"
  | "resource-token-monotonic"
  | "token-per-session"
  | "stale-write-accepted"
  | "split-brain"
  | "liveness";

/** A broken invariant. */
export interface Violation {
  /** True time, ms. */
  time_ms: number;
  kind: InvariantKind;
  /** The processes involved. */
  nodes: ProcId[];
  /** One line naming the values. */
  detail: string;
  /** Whether the algorithm promises this invariant (only these fail a run). */
  promised: boolean;
}

/** Counters and timings of a run (counters are numbers, times ms). */
export interface Metrics {
  /** Leaderships won. */
  elections_total: number;
  /** Leaderships lost: step-downs, and crashes of a node that led. */
  leadership_lost_total: number;
  /** The store's latest fencing token (lease worlds). */
  fencing_token: number | null;
  /** Nodes acting as leader now (up, not paused, believing they lead). */
  leaders_now: number;
  /** Total true time with two or more nodes acting as leader, ms. */
  split_brain_ms: number;
  /** The longest single stretch of split brain, ms. */
  worst_split_brain_ms: number;
  /** Total true time with no node acting as leader, ms. */
  leaderless_ms: number;
  /** Time from a leader's crash to the next leader, latest samples, ms. */
  failover_ms: number[];
  writes_accepted: number;
  /** Writes rejected (stale fencing token). */
  writes_rejected: number;
  /** Stale writes (token below one the resource had seen) that were accepted. */
  stale_writes_accepted: number;
  stale_writes_rejected: number;
  /** Writes that left their node after its lease had ended in true time. */
  late_writes: number;
  messages_sent: number;
  messages_delivered: number;
  messages_dropped: number;
  /** Events processed. */
  events: number;
}

/** The world at one instant (Simulation.snapshot). */
export interface Snapshot {
  /** True time, ms. */
  time_ms: number;
  algorithm: Algorithm;
  /** Every process: nodes first, then (lease worlds) the store and the resource. */
  nodes: NodeSnapshot[];
  /** Messages in flight, by arrival time. */
  in_flight: InFlightMessage[];
  /** Recently dropped messages (up to 64), oldest first. */
  dropped: DroppedMessage[];
  /** Blocked directed links [from, to]. */
  blocked: [ProcId, ProcId][];
  /** The store, lease worlds. */
  store: StoreSnapshot | null;
  /** The resource, lease worlds. */
  resource: ResourceSnapshot | null;
  metrics: Metrics;
  /** Violations so far (the first 1000). */
  violations: Violation[];
  /**
   * The invariants the algorithm promises now (only these fail a run): its registered list,
   * less "split-brain" once a fault broke the lease premise (a pause, a clock step, drift
   * beyond the bound).
   */
  promised: InvariantKind[];
}

/** Every trace event has its position and true time. */
export interface TraceEventBase {
  /** Position in the run, from 0. */
  seq: number;
  /** True time, ms. */
  time_ms: number;
}

/** A message left `from`; it arrives at arrival_ms (and again at duplicate_ms). */
export interface SendEvent extends TraceEventBase {
  event: "send";
  id: number;
  from: ProcId;
  to: ProcId;
  msg: MessageKind;
  /** Term, epoch or token carried. */
  value: number | null;
  arrival_ms: number;
  duplicate_ms: number | null;
}

/** A message reached its receiver. */
export interface DeliverEvent extends TraceEventBase {
  event: "deliver";
  id: number;
  from: ProcId;
  to: ProcId;
  msg: MessageKind;
}

/** A message was dropped. */
export interface DropEvent extends TraceEventBase {
  event: "drop";
  id: number;
  from: ProcId;
  to: ProcId;
  msg: MessageKind;
  reason: DropReason;
}

/** A process's timer fired. */
export interface TimeoutEvent extends TraceEventBase {
  event: "timeout";
  proc: ProcId;
}

/** Why a leader stopped leading. */
export type StepDownCause =
  | "lease-expired"
  | "renewal-rejected"
  | "fenced"
  | "released"
  | "store-unreachable"
  | "higher-term"
  | "check-quorum-failed"
  | "higher-coordinator"
  | "other";

/**
 * What a node event reports, discriminated by `what`: each change carries its own fields
 * (the simulator's typed node events).
 */
export type NodeChange =
  /** It leads: `value` is its Raft term, Bully epoch or lease fencing token. */
  | { what: "became-leader"; value: number }
  /** It stopped leading: `value` is the term, epoch or token it led with. */
  | { what: "stepped-down"; value: number; reason: StepDownCause }
  /** Raft: it campaigns in term `value`. */
  | { what: "became-candidate"; value: number }
  /** Raft (PreVote): it asks whether it could win term `value`. */
  | { what: "became-pre-candidate"; value: number }
  /** Bully: it starts an election at epoch `value`. */
  | { what: "election-started"; value: number }
  /** Bully: it follows coordinator `value` (a node id). */
  | { what: "coordinator-changed"; value: number }
  /** Lease: another session claims its holder id `value` (design rule 8). */
  | { what: "holder-clash"; value: number }
  /** Lease store: request `value` was swallowed by an outage. */
  | { what: "request-swallowed"; value: number }
  | { what: "outage-started" }
  | { what: "outage-ended" }
  /** Raft: a leader appended a client's command at log index `value`. */
  | { what: "proposed"; value: number }
  /** Raft: a client's command was refused. */
  | { what: "proposal-refused"; reason: "not-leader" | "crashed" }
  | { what: "crashed" }
  | { what: "restarted" }
  /** The process stopped for `duration_ms`. */
  | { what: "paused"; duration_ms: number }
  | { what: "resumed" };

/** A state change of a process. */
export type NodeEvent = TraceEventBase & { event: "node"; proc: ProcId } & NodeChange;

/**
 * Two or more nodes began acting as leader at once (up, not paused, believing they lead):
 * a split-brain window opens, whether or not the algorithm promises against it.
 */
export interface SplitBrainStartedEvent extends TraceEventBase {
  event: "split-brain-started";
  /** The nodes acting as leader. */
  leaders: ProcId[];
}

/** Fewer than two nodes act as leader again: the open split-brain window closes. */
export interface SplitBrainEndedEvent extends TraceEventBase {
  event: "split-brain-ended";
  /** How long the window lasted, ms. */
  duration_ms: number;
}

/** The resource judged a write. */
export interface WriteEvent extends TraceEventBase, ResourceWrite {
  event: "write";
}

/** A fault was applied. */
export interface FaultEvent extends TraceEventBase {
  event: "fault";
  fault: Fault;
}

/** An invariant was violated. */
export interface ViolationEvent extends TraceEventBase, Omit<Violation, "time_ms"> {
  event: "violation";
}

/** One event of a run: the CLI's --trace JSON Lines record, the same keys and values. */
export type TraceEvent =
  | SendEvent
  | DeliverEvent
  | DropEvent
  | TimeoutEvent
  | NodeEvent
  | SplitBrainStartedEvent
  | SplitBrainEndedEvent
  | WriteEvent
  | FaultEvent
  | ViolationEvent;

/** What Simulation.eventsSince returns. */
export interface EventsPage {
  /** Events with seq >= the cursor still in the bounded log (the last 4096), in order. */
  events: TraceEvent[];
  /** Pass this next time. */
  cursor: number;
  /** Events from the cursor on that had already left the log. */
  missed: number;
}

/** Codes of the errors Simulation throws (TypeError or RangeError). */
export type SimulationErrorCode =
  | "ERR_SCENARIO_TYPE"
  | "ERR_SCENARIO_RANGE"
  | "ERR_FAULT_TYPE"
  | "ERR_FAULT_RANGE"
  | "ERR_UNKNOWN_KEY"
  | "ERR_CURSOR_TYPE"
  | "ERR_CURSOR_RANGE"
  /** Scenario JSON text names one key twice in an object. */
  | "ERR_DUPLICATE_KEY"
  /** Simulation.message got an id that is not a non-negative safe integer. */
  | "ERR_MESSAGE_ID"
  /** eventsSince got kinds that are not an array of strings. */
  | "ERR_KINDS_TYPE"
  /** eventsSince got a kind that names no event. */
  | "ERR_KINDS_RANGE";
"#;
