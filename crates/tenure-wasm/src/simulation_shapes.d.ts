// Generated from the simulator's serde types (crates/tenure-sim, ts-rs) by
// crates/tenure-wasm/tests/sim_shapes.rs: do not edit. Times are ms numbers and node ids
// numbers, as the scenario files and the CLI's JSON have them.

/** An election algorithm the simulator runs (the simulator's registry). */
export type Algorithm = "lease-fencing" | "lease-unfenced" | "raft" | "bully" | "lease-no-margin";

/** A process: a node id (1..nodes), or the lease world's "store" / "resource". */
export type ProcId = number | "store" | "resource";
/** A process as scenario and fault JSON name it (the same as ProcId). */
export type ProcRef = ProcId;

/**
 * The scenario's `config` section: algorithm parameters, all optional (omitted = the core
 * machine's default). Keys that do not apply to the scenario's algorithm are rejected.
 */
export type ScenarioConfigFields = {
  /**
   * Raft: the minimum election timeout T in ms; each wait is drawn from
   * `[T, election_timeout_max_ms)`, `[T, 2T)` by default (rule 6).
   */
  election_timeout_ms?: number,
  /**
   * Raft: the exclusive upper end of the election-timeout range in ms (default 2T); must
   * exceed `election_timeout_ms` (or the default T of 150 ms).
   */
  election_timeout_max_ms?: number,
  /**
   * Raft and Bully: heartbeat interval in ms.
   */
  heartbeat_interval_ms?: number,
  /**
   * Raft: PreVote (Ongaro §9.6).
   */
  pre_vote?: boolean,
  /**
   * Raft: CheckQuorum.
   */
  check_quorum?: boolean,
  /**
   * Raft: the leader proposes a command this often, in ms (default 200).
   */
  propose_interval_ms?: number,
  /**
   * Raft: the leader lease (needs CheckQuorum): a leader acts only while a quorum
   * acknowledged it within T less the drift bound `max_drift_ppm`.
   */
  leader_lease?: boolean,
  /**
   * Raft: the clock-rate difference the leader lease allows for, in parts per million
   * (default 10 000); the lease lasts `T - T * ppm / 1e6`.
   */
  leader_lease_drift_ppm?: number,
  /**
   * Lease: time to live in ms.
   */
  ttl_ms?: number,
  /**
   * Lease: safety margin in ms (rule 4/5).
   */
  safety_margin_ms?: number,
  /**
   * Lease: renewal interval in ms (default ttl/3).
   */
  renew_interval_ms?: number,
  /**
   * Lease: retry interval in ms while not leader.
   */
  retry_interval_ms?: number,
  /**
   * Lease: the leader writes to the resource this often, in ms (default 100).
   */
  write_interval_ms?: number,
  /**
   * Lease: the clock-rate difference the safety margin must cover, in parts per million
   * (rule 5; default: the core's `LeaseConfig` default). Drift faults within this bound
   * keep the lease's promise of no split brain.
   */
  max_drift_ppm?: number,
  /**
   * Lease: the round trip that renew interval + round trip must fit in `ttl - margin`,
   * in ms (rule 5; default 500).
   */
  max_round_trip_ms?: number,
  /**
   * Lease: the holder id every contender claims, instead of its own node id: the
   * misconfiguration of design rule 8 (two processes with one identity). Each contender is
   * still its own session, so the store keeps all but one out. At most 2^32.
   */
  holder_id?: number,
  /**
   * Lease: the first fencing token the store issues (default 1), as a store continuing
   * from a predecessor that issued every token below it (a control plane's generation
   * 41 after 40 others). From 1 to 2^32, so every token of a run stays a whole JS number.
   */
  first_token?: number,
  /**
   * Bully: no heartbeat from the coordinator for this long (ms) starts an election.
   */
  failure_timeout_ms?: number,
  /**
   * Bully: wait this long (ms) for an Answer from a higher id.
   */
  answer_timeout_ms?: number,
  /**
   * Bully: after an Answer, wait this long (ms) for the Coordinator announcement.
   */
  coordinator_timeout_ms?: number,
};

/** The `config` keys of lease-fencing scenarios (Lease with fencing); any other key is refused. */
export type LeaseFencingConfig = Pick<ScenarioConfigFields, "ttl_ms" | "safety_margin_ms" | "renew_interval_ms" | "retry_interval_ms" | "write_interval_ms" | "max_drift_ppm" | "max_round_trip_ms" | "holder_id" | "first_token">;
/** The `config` keys of lease-unfenced scenarios (Lease without fencing); any other key is refused. */
export type LeaseUnfencedConfig = Pick<ScenarioConfigFields, "ttl_ms" | "safety_margin_ms" | "renew_interval_ms" | "retry_interval_ms" | "write_interval_ms" | "max_drift_ppm" | "max_round_trip_ms" | "holder_id" | "first_token">;
/** The `config` keys of raft scenarios (Raft); any other key is refused. */
export type RaftConfig = Pick<ScenarioConfigFields, "election_timeout_ms" | "election_timeout_max_ms" | "heartbeat_interval_ms" | "pre_vote" | "check_quorum" | "propose_interval_ms" | "leader_lease" | "leader_lease_drift_ppm">;
/** The `config` keys of bully scenarios (Bully); any other key is refused. */
export type BullyConfig = Pick<ScenarioConfigFields, "heartbeat_interval_ms" | "failure_timeout_ms" | "answer_timeout_ms" | "coordinator_timeout_ms">;
/** The `config` keys of lease-no-margin scenarios (Lease without a safety margin (foil)); any other key is refused. */
export type LeaseNoMarginConfig = Pick<ScenarioConfigFields, "ttl_ms" | "renew_interval_ms" | "retry_interval_ms" | "write_interval_ms" | "max_round_trip_ms" | "holder_id" | "first_token">;

/** Any algorithm's config (what `SearchOptions.config` lays over a drawn scenario). */
export type ScenarioConfig = LeaseFencingConfig | LeaseUnfencedConfig | RaftConfig | BullyConfig | LeaseNoMarginConfig;

/**
 * The scenario's `network` section: defaults for every link.
 */
export type NetworkConfig = {
  /**
   * One-way latency range `[min, max]` in ms. Default `[1, 10]`.
   */
  latency_ms: [number, number],
  /**
   * Loss probability in `[0, 1]`. Default 0.
   */
  loss: number,
  /**
   * Duplication probability in `[0, 1]`. Default 0.
   */
  duplicate: number,
};

/**
 * One fault (docs/design.md "The simulator", Faults).
 */
export type Fault = {
  "type": "crash",
  /**
   * The node to crash.
   */
  node: number,
} | {
  "type": "restart",
  /**
   * The node to restart.
   */
  node: number,
} | {
  "type": "pause",
  /**
   * The process to pause (a node, the store or the resource).
   */
  target: ProcId,
  /**
   * How long, in ms.
   */
  duration_ms: number,
} | {
  "type": "pause-after-check",
  /**
   * The lease contender.
   */
  node: number,
  /**
   * How long, in ms.
   */
  duration_ms: number,
} | {
  "type": "partition",
  /**
   * Disjoint groups of processes.
   */
  groups: Array<Array<ProcId>>,
} | {
  "type": "partition-one-way",
  /**
   * Senders whose messages are cut.
   */
  from: Array<ProcId>,
  /**
   * Receivers that no longer hear them.
   */
  to: Array<ProcId>,
} | {
  "type": "isolate",
  /**
   * The processes to cut off from the rest.
   */
  nodes: Array<ProcId>,
} | {
  "type": "heal",
} | {
  "type": "link-loss",
  /**
   * Senders.
   */
  from: Array<ProcId>,
  /**
   * Receivers.
   */
  to: Array<ProcId>,
  /**
   * Probability in `[0, 1]`.
   */
  probability: number,
} | {
  "type": "link-duplicate",
  /**
   * Senders.
   */
  from: Array<ProcId>,
  /**
   * Receivers.
   */
  to: Array<ProcId>,
  /**
   * Probability in `[0, 1]`.
   */
  probability: number,
} | {
  "type": "link-latency",
  /**
   * Senders.
   */
  from: Array<ProcId>,
  /**
   * Receivers.
   */
  to: Array<ProcId>,
  /**
   * Shortest delay in ms.
   */
  min_ms: number,
  /**
   * Longest delay in ms.
   */
  max_ms: number,
} | {
  "type": "clock-offset",
  /**
   * Whose clock.
   */
  target: ProcId,
  /**
   * Signed step in ms.
   */
  offset_ms: number,
} | {
  "type": "clock-drift",
  /**
   * Whose clock.
   */
  target: ProcId,
  /**
   * Rate error in parts per million, within ±500000.
   */
  ppm: number,
} | {
  "type": "clock-jump",
  /**
   * Whose clock.
   */
  target: ProcId,
  /**
   * Jump in ms.
   */
  by_ms: number,
} | {
  "type": "store-outage",
  /**
   * How long, in ms.
   */
  duration_ms: number,
} | {
  "type": "drop-message",
  /**
   * The message's id.
   */
  id: number,
} | {
  "type": "propose",
  /**
   * The node the client asks.
   */
  node: number,
  /**
   * The command, an opaque number (shown in the log view).
   */
  command: number,
};

/**
 * A fault scheduled at a true time (ms since the start of the run).
 */
export type TimedFault = {
  /**
   * When, in ms of true time.
   */
  at_ms: number,
  /**
   * What.
   */
  fault: Fault,
};

/**
 * A whole run: algorithm, cluster size, parameters, network, seed, length and faults.
 */
export type ScenarioFields = {
  /**
   * Format version; must be 1 ([`SCENARIO_VERSION`]).
   */
  version: 1,
  /**
   * Number of election nodes, ids 1 to `nodes` (lease worlds add the store and resource).
   */
  nodes: number,
  /**
   * Default link behaviour.
   */
  network?: Partial<NetworkConfig>,
  /**
   * The seed every random choice of the run derives from: a JSON number, or a decimal
   * string for seeds above 2^53 that JavaScript's `JSON.stringify` cannot write as one.
   */
  seed?: number | bigint | string,
  /**
   * Length of the run in ms of true time.
   */
  duration_ms: number,
  /**
   * Scheduled faults.
   */
  faults?: Array<TimedFault>,
};

/**
 * A whole run: the versioned JSON of the `tenure` CLI's scenario files, one member
 * per algorithm so that `config` holds only that algorithm's keys. Unknown keys are
 * refused everywhere; times are ms.
 */
export type Scenario =
  | (ScenarioFields & { algorithm: "lease-fencing"; config?: LeaseFencingConfig })
  | (ScenarioFields & { algorithm: "lease-unfenced"; config?: LeaseUnfencedConfig })
  | (ScenarioFields & { algorithm: "raft"; config?: RaftConfig })
  | (ScenarioFields & { algorithm: "bully"; config?: BullyConfig })
  | (ScenarioFields & { algorithm: "lease-no-margin"; config?: LeaseNoMarginConfig });

/** The fields of ScenarioJSON but `algorithm` and `config`. */
export type ScenarioJSONFields = Omit<ScenarioFields, "network" | "seed" | "faults"> & {
  network: Required<NetworkConfig>;
  /** A number, or a decimal string above 2^53 - 1 so that JSON.stringify works (drawn seeds never are). */
  seed: number | string;
  faults: TimedFault[];
};
/** What Simulation.toJSON returns: the scenario with its seed and every injected fault. */
export type ScenarioJSON =
  | (ScenarioJSONFields & { algorithm: "lease-fencing"; config: LeaseFencingConfig })
  | (ScenarioJSONFields & { algorithm: "lease-unfenced"; config: LeaseUnfencedConfig })
  | (ScenarioJSONFields & { algorithm: "raft"; config: RaftConfig })
  | (ScenarioJSONFields & { algorithm: "bully"; config: BullyConfig })
  | (ScenarioJSONFields & { algorithm: "lease-no-margin"; config: LeaseNoMarginConfig });

/**
 * The world at one instant.
 */
export type Snapshot = {
  /**
   * True time.
   */
  time_ms: number,
  /**
   * The algorithm.
   */
  algorithm: Algorithm,
  /**
   * Every process, nodes first, then store and resource.
   */
  nodes: Array<NodeSnapshot>,
  /**
   * Messages in flight.
   */
  in_flight: Array<InFlightMessage>,
  /**
   * Recently dropped messages, oldest first.
   */
  dropped: Array<DroppedMessage>,
  /**
   * Blocked directed links `(from, to)`.
   */
  blocked: Array<[ProcId, ProcId]>,
  /**
   * The store, lease worlds.
   */
  store: StoreSnapshot | null,
  /**
   * The resource, lease worlds.
   */
  resource: ResourceSnapshot | null,
  /**
   * Metrics so far.
   */
  metrics: Metrics,
  /**
   * Violations so far (the first ones, up to a cap).
   */
  violations: Array<Violation>,
  /**
   * The invariants the algorithm promises now: its registration's list, less
   * [`InvariantKind::SplitBrain`] once a fault broke the premise it rests on.
   */
  promised: Array<InvariantKind>,
};

/**
 * Whether a process runs.
 */
export type ProcStatus = "up" | "paused" | "crashed";

/**
 * One process.
 */
export type NodeSnapshot = {
  /**
   * The process.
   */
  id: ProcId,
  /**
   * Its machine's role (`Leader`, `Follower`, `Candidate`, `Coordinator`, `store`, ...).
   */
  role: RoleLabel,
  /**
   * What the role amounts to, the same words for every algorithm (`crashed` when down).
   */
  role_kind: RoleKind,
  /**
   * Whether it acts as leader now: up, not paused, believing it leads (what the
   * `leaders_now` metric and split brain count).
   */
  acting_leader: boolean,
  /**
   * Raft term or Bully epoch.
   */
  term: number | null,
  /**
   * Lease fencing token held.
   */
  token: number | null,
  /**
   * The node it believes leads.
   */
  leader: number | null,
  /**
   * Up, paused or crashed.
   */
  status: ProcStatus,
  /**
   * Its clock reading.
   */
  clock_ms: number,
  /**
   * Its lease deadline converted to true time, lease contenders that lead.
   */
  lease_deadline_ms: number | null,
  /**
   * Lease contenders: how long a lease is valid on its own clock, counted from the send
   * time of the request that won or renewed it (ttl - safety margin): the full span of
   * the time left until `lease_deadline_ms`.
   */
  lease_validity_ms: number | null,
  /**
   * Its next timer.
   */
  next_timer: TimerSnapshot | null,
  /**
   * Raft: log length.
   */
  log_len: number | null,
  /**
   * Raft: commit index.
   */
  commit: number | null,
  /**
   * Raft: the last entries of its log (up to [`LOG_TAIL`]), oldest first.
   */
  log: Array<LogEntry> | null,
};

/**
 * A timer a process waits on.
 */
export type TimerSnapshot = {
  /**
   * What it waits for (`Election`, `Heartbeat`, `Renew`, `LeaseDeadline`, `Write`, ...).
   */
  kind: TimerKind,
  /**
   * When it fires, in true time (an estimate through the process's clock).
   */
  deadline_ms: number,
  /**
   * When it was armed, in true time.
   */
  armed_ms: number,
  /**
   * Its full wait on the process's clock, from arming to deadline: the part of it
   * still left is how far the timer has run down.
   */
  wait_ms: number,
};

/**
 * One Raft log entry.
 */
export type LogEntry = {
  /**
   * Its index, from 1.
   */
  index: number,
  /**
   * The term of the leader that appended it.
   */
  term: number,
  /**
   * The client's command; `None` for the no-op a new leader appends.
   */
  command: number | null,
};

/**
 * A message on the wire.
 */
export type InFlightMessage = {
  /**
   * Message id.
   */
  id: number,
  /**
   * Sender.
   */
  from: ProcId,
  /**
   * Receiver.
   */
  to: ProcId,
  /**
   * Kind label.
   */
  kind: MessageKind,
  /**
   * Term, epoch or token carried.
   */
  value: number | null,
  /**
   * True send time.
   */
  send_ms: number,
  /**
   * True arrival time.
   */
  arrival_ms: number,
};

/**
 * A recently dropped message.
 */
export type DroppedMessage = {
  /**
   * Message id.
   */
  id: number,
  /**
   * Sender.
   */
  from: ProcId,
  /**
   * Receiver.
   */
  to: ProcId,
  /**
   * Kind label.
   */
  kind: MessageKind,
  /**
   * True time of the drop.
   */
  time_ms: number,
  /**
   * Why.
   */
  reason: DropReason,
};

/**
 * The lease store.
 */
export type StoreSnapshot = {
  /**
   * The valid holder on the store's clock, if any.
   */
  holder: number | null,
  /**
   * Its token.
   */
  token: number | null,
  /**
   * Its expiry on the store's clock.
   */
  expiry_ms: number | null,
  /**
   * That expiry in true time (an estimate through the store's clock).
   */
  expiry_true_ms: number | null,
  /**
   * The TTL the valid holder's lease was granted or last renewed with (the full span of
   * the time left until `expiry_ms`).
   */
  ttl_ms: number | null,
  /**
   * The last token issued.
   */
  last_token: number | null,
  /**
   * False during an outage.
   */
  available: boolean,
};

/**
 * The fenced resource.
 */
export type ResourceSnapshot = {
  /**
   * Highest token seen (rule 1).
   */
  highest_token: number,
  /**
   * Whether it checks tokens (lease-fencing) or accepts everything (lease-unfenced).
   */
  fenced: boolean,
  /**
   * The latest writes, oldest first.
   */
  recent_writes: Array<ResourceWrite>,
};

/**
 * One write judged by the fenced resource.
 */
export type ResourceWrite = {
  /**
   * True time the resource judged it.
   */
  time_ms: number,
  /**
   * True time the write left its node.
   */
  issued_ms: number,
  /**
   * The writer.
   */
  from: ProcId,
  /**
   * The writer's fencing token (presented only with fencing; always recorded here).
   */
  token: number,
  /**
   * Whether the resource accepted it.
   */
  accepted: boolean,
  /**
   * Why it was refused, `None` when accepted: always a stale fencing token, the
   * resource's only refusal (design rule 1).
   */
  reason: WriteRefusal | null,
  /**
   * Stale: its token is below one the resource had already seen (with fencing this is
   * exactly what gets rejected; without, the simulator keeps the count on the side).
   */
  stale: boolean,
  /**
   * Late: it left its node after its lease had ended in true time (judged on the store's
   * clock from the store's grant and renew records).
   */
  late: boolean,
  /**
   * The token presented, `None` in unfenced mode.
   */
  presented: number | null,
  /**
   * The highest token the resource had seen before this write.
   */
  required: number,
};

/**
 * Why the fenced resource refused a write.
 */
export type WriteRefusal = "stale fencing token";

/**
 * Why a message was not delivered.
 */
export type DropReason = "partition" | "loss" | "crashed" | "outage" | "injected";

/**
 * The role a process shows in a snapshot: its core machine's own role names, plus the
 * lease world's service processes.
 */
export type RoleLabel = "Follower" | "PreCandidate" | "Candidate" | "Leader" | "Coordinator" | "Campaigning" | "Stopped" | "Crashed" | "store" | "resource";

/**
 * What a role amounts to, the same for every algorithm (the page colours by it).
 */
export type RoleKind = "leader" | "candidate" | "follower" | "crashed" | "service";

/**
 * Counters and timings of one run. Times are true time (`_us` fields in Rust, `_ms` in
 * JSON).
 */
export type Metrics = {
  /**
   * Leaderships won (`BecameLeader`, `Elected`, `BecameCoordinator`).
   */
  elections_total: number,
  /**
   * Leaderships lost: step-downs, and crashes of a node that led.
   */
  leadership_lost_total: number,
  /**
   * The store's latest fencing token (lease worlds).
   */
  fencing_token: number | null,
  /**
   * Nodes acting as leader now (up, not paused, believing they lead).
   */
  leaders_now: number,
  /**
   * Total true time with two or more nodes acting as leader.
   */
  split_brain_ms: number,
  /**
   * The longest single stretch of split brain.
   */
  worst_split_brain_ms: number,
  /**
   * Total true time with no node acting as leader.
   */
  leaderless_ms: number,
  /**
   * Time from a leader's crash to the next leader, latest samples.
   */
  failover_ms: Array<number>,
  /**
   * Writes the resource accepted.
   */
  writes_accepted: number,
  /**
   * Writes the resource rejected (stale fencing token).
   */
  writes_rejected: number,
  /**
   * Stale writes (token below one the resource had seen) that were accepted.
   */
  stale_writes_accepted: number,
  /**
   * Stale writes that were rejected.
   */
  stale_writes_rejected: number,
  /**
   * Writes that left their node after its lease had ended in true time.
   */
  late_writes: number,
  /**
   * Messages handed to the network (duplicates not counted).
   */
  messages_sent: number,
  /**
   * Messages delivered (duplicates counted).
   */
  messages_delivered: number,
  /**
   * Messages dropped: partitions, loss, crashed receivers, store outages.
   */
  messages_dropped: number,
  /**
   * Trace events recorded (sends, deliveries, drops, timeouts, state changes, faults).
   */
  events: number,
};

/**
 * An invariant (or liveness property) the checker watches.
 */
export type InvariantKind = "election-safety" | "term-monotonic" | "log-matching" | "leader-completeness" | "single-valid-holder" | "token-monotonic" | "resource-token-monotonic" | "token-per-session" | "stale-write-accepted" | "split-brain" | "liveness";

/**
 * A broken invariant: when, which, who, and what exactly.
 */
export type Violation = {
  /**
   * True time.
   */
  time_ms: number,
  /**
   * Which invariant.
   */
  kind: InvariantKind,
  /**
   * The processes involved.
   */
  nodes: Array<ProcId>,
  /**
   * One line naming the values.
   */
  detail: string,
  /**
   * Whether the algorithm promises this invariant (only these fail a run).
   */
  promised: boolean,
};

/**
 * One event: a sequence number, the true time in us, and what happened.
 */
export type TraceEvent = {
  /**
   * Position in the run, from 0.
   */
  seq: number,
  /**
   * True time.
   */
  time_ms: number,
} & TraceKind;

/**
 * What happened, one variant per kind of event.
 */
export type TraceKind = {
  "event": "send",
  /**
   * Message id, unique in the run.
   */
  id: number,
  /**
   * Sender.
   */
  from: ProcId,
  /**
   * Receiver.
   */
  to: ProcId,
  /**
   * Message kind (`RequestVote`, `AppendEntries`, `Acquire`, `Write`, ...).
   */
  msg: MessageKind,
  /**
   * Term, epoch or token the message carries, if any.
   */
  value: number | null,
  /**
   * True arrival time.
   */
  arrival_ms: number,
  /**
   * True arrival time of a duplicate, if the link duplicated it.
   */
  duplicate_ms: number | null,
} | {
  "event": "deliver",
  /**
   * Message id.
   */
  id: number,
  /**
   * Sender.
   */
  from: ProcId,
  /**
   * Receiver.
   */
  to: ProcId,
  /**
   * Message kind.
   */
  msg: MessageKind,
} | {
  "event": "drop",
  /**
   * Message id.
   */
  id: number,
  /**
   * Sender.
   */
  from: ProcId,
  /**
   * Receiver.
   */
  to: ProcId,
  /**
   * Message kind.
   */
  msg: MessageKind,
  /**
   * Why.
   */
  reason: DropReason,
} | {
  "event": "timeout",
  /**
   * The process.
   */
  proc: ProcId,
} | {
  "event": "node",
  /**
   * The process.
   */
  proc: ProcId,
} & ({
  "what": "became-leader",
  /**
   * Term, epoch or token.
   */
  value: number,
} | {
  "what": "stepped-down",
  /**
   * The term, epoch or token it led with.
   */
  value: number,
  /**
   * Why.
   */
  reason: StepDownCause,
} | {
  "what": "became-candidate",
  /**
   * The term.
   */
  value: number,
} | {
  "what": "became-pre-candidate",
  /**
   * The term it would campaign in.
   */
  value: number,
} | {
  "what": "election-started",
  /**
   * The epoch.
   */
  value: number,
} | {
  "what": "coordinator-changed",
  /**
   * The coordinator's node id.
   */
  value: number,
} | {
  "what": "holder-clash",
  /**
   * The holder id both claim.
   */
  value: number,
} | {
  "what": "request-swallowed",
  /**
   * The request id.
   */
  value: number,
} | {
  "what": "outage-started"
} | {
  "what": "outage-ended"
} | {
  "what": "proposed",
  /**
   * The log index.
   */
  value: number,
} | {
  "what": "proposal-refused",
  /**
   * Why.
   */
  reason: RefusalCause,
} | {
  "what": "crashed"
} | {
  "what": "restarted"
} | {
  "what": "paused",
  /**
   * How long.
   */
  duration_ms: number,
} | {
  "what": "resumed"
}) | {
  "event": "split-brain-started",
  /**
   * The nodes acting as leader.
   */
  leaders: Array<ProcId>,
} | {
  "event": "split-brain-ended",
  /**
   * How long it lasted (`duration_ms` in JSON).
   */
  duration_ms: number,
} | {
  "event": "write"
} & ResourceWrite | {
  "event": "fault",
  /**
   * The fault.
   */
  fault: Fault,
} | {
  "event": "violation"
} & Violation;

/**
 * A state change of one process, one variant per kind.
 */
export type NodeChange = {
  "what": "became-leader",
  /**
   * Term, epoch or token.
   */
  value: number,
} | {
  "what": "stepped-down",
  /**
   * The term, epoch or token it led with.
   */
  value: number,
  /**
   * Why.
   */
  reason: StepDownCause,
} | {
  "what": "became-candidate",
  /**
   * The term.
   */
  value: number,
} | {
  "what": "became-pre-candidate",
  /**
   * The term it would campaign in.
   */
  value: number,
} | {
  "what": "election-started",
  /**
   * The epoch.
   */
  value: number,
} | {
  "what": "coordinator-changed",
  /**
   * The coordinator's node id.
   */
  value: number,
} | {
  "what": "holder-clash",
  /**
   * The holder id both claim.
   */
  value: number,
} | {
  "what": "request-swallowed",
  /**
   * The request id.
   */
  value: number,
} | {
  "what": "outage-started"
} | {
  "what": "outage-ended"
} | {
  "what": "proposed",
  /**
   * The log index.
   */
  value: number,
} | {
  "what": "proposal-refused",
  /**
   * Why.
   */
  reason: RefusalCause,
} | {
  "what": "crashed"
} | {
  "what": "restarted"
} | {
  "what": "paused",
  /**
   * How long.
   */
  duration_ms: number,
} | {
  "what": "resumed"
};

/**
 * Why a leader stopped leading.
 */
export type StepDownCause = "lease-expired" | "renewal-rejected" | "fenced" | "released" | "store-unreachable" | "higher-term" | "check-quorum-failed" | "higher-coordinator" | "other";

/**
 * Why a client's proposal was refused.
 */
export type RefusalCause = "not-leader" | "crashed";
