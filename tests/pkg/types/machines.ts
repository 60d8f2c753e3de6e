// Type-checked (tsc --noEmit), never run: the state machines' public types are precise
// discriminated unions with no `any` (convention 13).
import {
  BullyNode,
  FencedResource,
  LeaseCandidate,
  LeaseStore,
  RaftNode,
  type BullyEvent,
  type BullyMessage,
  type BullyOutput,
  type CandidateOutput,
  type FencingToken,
  type LeadershipCheck,
  type LeaseConfig,
  type RaftEntry,
  type RaftMessage,
  type RaftOutput,
  type RaftPersistOp,
  type RaftPersistentState,
  type NodeId,
  type SessionId,
  type StoreRequest,
  type StoreResponse,
  type TenureErrorCode,
  type TimerInfo,
} from "tenure";

// ----- lease: drive a candidate against a store -----
const store = new LeaseStore();
const candidate = new LeaseCandidate({ holder: 1n, key: "orders", ttl_ms: 10_000, seed: 7n });
new LeaseCandidate();
candidate.campaign(0);
for (let out: CandidateOutput | undefined = candidate.pollOutput(); out; out = candidate.pollOutput()) {
  switch (out.type) {
    case "Send": {
      const request: StoreRequest = out.request;
      if (request.type === "Renew") {
        const token: FencingToken = request.token;
        void token;
      }
      const response: StoreResponse | undefined = store.handle(0, request);
      if (response) {
        if (response.type === "Held") {
          // Both may be absent or null: a store need not say (design rule 9).
          const left: number | null | undefined = response.remaining_ms;
          const who: NodeId | null | undefined = response.holder;
          void left;
          void who;
        } else if (response.type === "Rejected") {
          const reason: "NotHolder" | "TokenMismatch" | "Expired" | "TokensExhausted" | "Unknown" = response.reason;
          void reason;
        }
        candidate.handleResponse(0, response);
      }
      break;
    }
    case "Event":
      if (out.event.type === "Elected") {
        const deadline: number = out.event.deadline_ms;
        void deadline;
      } else if (out.event.type === "SteppedDown") {
        const why: "LeaseExpired" | "RenewalRejected" | "Fenced" | "Released" | "StoreUnreachable" = out.event.reason;
        void why;
      } else {
        // Another session claims this holder id (design rule 8).
        const clash: NodeId = out.event.holder;
        void clash;
      }
      break;
  }
}
const check: LeadershipCheck = candidate.assertLeadership(1);
const resource = new FencedResource();
if (check.leader) {
  const result = resource.write(check.token, { order: 1 });
  if (!result.accepted) candidate.reportFenced(2, result);
} else if (check.reason === "DeadlinePassed") {
  const late: number = check.now_ms - check.deadline_ms;
  void late;
} else {
  const state: "Follower" | "Campaigning" | "Leader" | "Stopped" = check.state;
  void state;
}
const timer: TimerInfo<"Retry" | "Renew" | "RequestTimeout" | "LeaseDeadline"> | undefined = candidate.nextTimer;
const next: number | undefined = candidate.pollTimeout();
const config: LeaseConfig = candidate.config;
const session: SessionId = candidate.session;
const request: StoreRequest = { type: "Release", id: 1n, key: "k", holder: 1n, session, token: 1n };
void request;
// A Held answer may leave out what the store cannot say.
candidate.handleResponse(0, { type: "Held", id: 1n, key: "orders" });
candidate.handleResponse(0, { type: "Held", id: 1n, key: "orders", holder: null, remaining_ms: null });
// @ts-expect-error requests carry the session (design rule 8)
store.handle(0, { type: "Acquire", id: 1n, key: "k", holder: 1n, ttl_ms: 1 });
const replay = new LeaseCandidate(config);
const holder = store.holder("orders");
const expires: number | undefined = holder?.expires_at_ms;
void timer, next, replay, expires;

// ----- raft -----
const raft = new RaftNode({ id: 1n, peers: [2n, 3n], election_timeout_ms: 150, pre_vote: true });
raft.handleTimeout(0);
const leased = new RaftNode({ election_timeout_ms: 150, election_timeout_max_ms: 155, leader_lease: true, max_drift_ppm: 5_000, max_inflight_appends: 4 });
const acting: boolean = leased.isActingLeader;
const range: [number, number] = [leased.config.election_timeout_ms, leased.config.election_timeout_max_ms];
const lease: boolean = leased.config.leader_lease;
const leaseTimer = leased.timer("LeaderLease");
const echoed: RaftMessage = { type: "AppendEntriesResponse", term: 1n, success: true, match_index: 0n, context: 5n };
void acting, range, lease, leaseTimer, echoed;
const vote: RaftMessage = { type: "RequestVote", term: 1n, last_log_index: 0n, last_log_term: 0n, pre_vote: false };
raft.handleMessage(1, 2n, vote);
for (let out: RaftOutput | undefined = raft.pollOutput(); out; out = raft.pollOutput()) {
  if (out.type === "Send") {
    const to: bigint = out.to;
    if (out.msg.type === "AppendEntries") {
      const entries: RaftEntry[] = out.msg.entries;
      for (const e of entries) if (e.type === "Command") void (e.command + e.term);
    }
    void to;
  } else if (out.type === "Persist") {
    if (out.op.type === "HardState") {
      const votedFor: bigint | null = out.op.voted_for;
      void votedFor;
    }
  } else if (out.event.type === "SteppedDown" && out.event.reason.type === "HigherTerm") {
    const newTerm: bigint = out.event.reason.new_term;
    void newTerm;
  }
}
const persisted: RaftPersistentState = raft.persistentState;
const restarted: RaftNode = RaftNode.restart(raft.config, persisted);
const role: "Follower" | "PreCandidate" | "Candidate" | "Leader" = restarted.role;
const leader: bigint | undefined = restarted.leaderId;
const index: bigint = raft.role === "Leader" ? raft.propose(2, 42n) : raft.commitIndex;
const electionAt: number | undefined = raft.timer("Election");
void role, leader, index, electionAt;

// ----- bully -----
const bully = new BullyNode({ id: 3n, peers: [1n, 2n] });
bully.handleTimeout(0);
const bout: BullyOutput | undefined = bully.pollOutput();
if (bout?.type === "Send" && bout.msg.type === "Coordinator") {
  const who: bigint = bout.msg.coordinator;
  void who;
} else if (bout?.type === "Persist") {
  BullyNode.restart(bully.config, bout.state);
}
const coordinator: bigint | undefined = bully.coordinator;
void coordinator;
// Nested shapes narrow through their own `type`: an event's step-down reason.
const bevent: BullyEvent = { type: "SteppedDown", epoch: 2n, reason: { type: "HigherCoordinator", coordinator: 4n, epoch: 2n } };
if (bevent.type === "SteppedDown" && bevent.reason.type === "HigherCoordinator") {
  const by: NodeId = bevent.reason.coordinator;
  void by;
}
const bmsg: BullyMessage = { type: "Coordinator", coordinator: 3n, epoch: 1n };
bully.handleMessage(0, 3n, bmsg);
const ops: RaftPersistOp[] = [
  { type: "HardState", term: 1n, voted_for: null },
  { type: "Append", first_index: 1n, entries: [{ type: "Noop", term: 1n }, { type: "Command", term: 1n, command: 7n }] },
];
void ops;

// ----- errors -----
try {
  candidate.campaign(Number.NaN);
} catch (err) {
  const code = (err as { code?: TenureErrorCode }).code;
  if (code === "ERR_MILLIS_RANGE" || code === "ERR_MILLIS_PRECISION" || code === "ERR_UNKNOWN_KEY") void code;
}

// ----- a config key given as null takes its default, as absent or undefined does -----
// (the constructors read null as "not given"; the types said so only of renew_interval_ms)
new LeaseCandidate({
  holder: null, key: null, ttl_ms: null, safety_margin_ms: null, renew_interval_ms: null,
  max_round_trip_ms: null, max_drift_ppm: null, retry_interval_ms: null, retry_jitter_ms: null,
  request_timeout_ms: null, fencing: null, seed: null,
});
new RaftNode({
  id: null, peers: null, election_timeout_ms: null, election_timeout_max_ms: null,
  heartbeat_interval_ms: null, pre_vote: null, check_quorum: null, max_entries_per_append: null,
  max_inflight_appends: null, leader_lease: null, max_drift_ppm: null, seed: null,
});
new BullyNode({
  id: null, peers: null, heartbeat_interval_ms: null, failure_timeout_ms: null,
  answer_timeout_ms: null, coordinator_timeout_ms: null, seed: null,
});

// ----- what must not type-check -----
// @ts-expect-error ids are bigints
new RaftNode({ id: 1 });
// @ts-expect-error unknown config keys are rejected at compile time too
new LeaseCandidate({ ttl: 10_000 });
// @ts-expect-error times are numbers of ms
candidate.campaign(0n);
// @ts-expect-error a request needs its type's fields
store.handle(0, { type: "Renew", id: 1n, key: "k", holder: 1n, session: 1n, ttl_ms: 5 });
// @ts-expect-error the Raft message union is closed
raft.handleMessage(0, 2n, { type: "Vote", term: 1n });
// @ts-expect-error Held carries no token
store.handle(0, { type: "Acquire", id: 1n, key: "k", holder: 1n, session: 1n, ttl_ms: 1 })?.type === "Held" && store.handle(0, { type: "Acquire", id: 1n, key: "k", holder: 1n, session: 1n, ttl_ms: 1 })!.token;
// @ts-expect-error every Bully message carries its epoch
bully.handleMessage(0, 1n, { type: "Election" });
// @ts-expect-error a Noop entry carries no command
const noop: RaftEntry = { type: "Noop", term: 1n, command: 1n };
// @ts-expect-error voted_for is a bigint or null, never undefined
const hard: RaftPersistOp = { type: "HardState", term: 1n };
// @ts-expect-error the persisted Bully state is its epoch only
BullyNode.restart({ id: 1n }, { epoch: 1n, role: "Follower" });
void noop, hard;

// A machine's toJSON() summary, or its text, reads back into the same class.
{
  const candidate: LeaseCandidate = LeaseCandidate.fromJSON(new LeaseCandidate({ holder: 5n }).toJSON());
  const raft: RaftNode = RaftNode.fromJSON(JSON.stringify(new RaftNode({ id: 1n, peers: [2n, 3n] })));
  const bully: BullyNode = BullyNode.fromJSON(new BullyNode({ id: 1n, peers: [2n] }).toJSON());
  void [candidate, raft, bully];
  // @ts-expect-error: a number is not a summary
  LeaseCandidate.fromJSON(5);
}
