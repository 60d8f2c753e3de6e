// The stories: each is a scenario (the same JSON the CLI runs) and its beats. A beat is a
// condition on the run's trace events ("the resource refuses a write", "another node is
// granted the lease") and the words for it, built from the matching event: the node names,
// tokens and times of the run being shown, never a timed script. Beats match in order, each
// after the one before; `bind` remembers who is who ("the old leader") for the later beats.
// `cites` names the sources in the info panel.
import { procKey } from "./procs.js";
import { at, span } from "./narrate.js";

/** Story links: slower than the simulator's default, so a message is motion, not a flicker. */
const NET = { latency_ms: [15, 45] };

/** @param {string} algorithm @param {number} nodes @param {object[]} faults */
function scenario(algorithm, nodes, durationMs, faults, config = {}, network = NET) {
  return {
    version: 1,
    algorithm,
    nodes,
    config,
    network,
    seed: 7,
    duration_ms: durationMs,
    faults: faults.map(([at_ms, fault]) => ({ at_ms, fault })),
  };
}

const n = (p) => procKey(p);
const isNode = (ev, what) => ev.event === "node" && ev.what === what;
const led = (ev) => isNode(ev, "became-leader");
/** The lease timings a story narrates: `c` is the simulator's effective config (defaults filled in). */
const leaseNote = (c) => ({ ttl: c.ttl_ms, margin: c.safety_margin_ms, renew: c.renew_interval_ms, write: c.write_interval_ms });

/** The first lease beats of the fencing stories: the winner, then the pause. */
const leaseWinner = {
  when: led,
  bind: (ev, b) => ((b.old = n(ev.proc)), (b.oldToken = String(ev.value))),
  say: (ev, b, c) => `${b.old} wins the lease at ${at(ev.time_ms)} with fencing token ${b.oldToken} and installs it at the resource. It writes every ${leaseNote(c).write} ms, checking its lease before each write.`,
};
const pauseAfterCheck = {
  when: (ev, b) => isNode(ev, "paused") && n(ev.proc) === b.old,
  bind: (ev, b) => (b.pauseAt = ev.time_ms),
  say: (ev, b) => `At ${at(ev.time_ms)} ${b.old} passes its lease check... and freezes right after it, before its write leaves: a stop-the-world pause of ${span(ev.duration_ms ?? 0)}.`,
};
const takeover = {
  when: (ev, b) => led(ev) && n(ev.proc) !== b.old,
  bind: (ev, b) => ((b.new = n(ev.proc)), (b.newToken = String(ev.value))),
  say: (ev, b) => `The store knows nothing of the pause; it only saw ${b.old} stop renewing. At ${at(ev.time_ms)} the lease has expired on the store's clock: ${b.new} is granted token ${b.newToken} and installs it at the resource.`,
};
const wakes = {
  when: (ev, b) => isNode(ev, "resumed") && n(ev.proc) === b.old,
  say: (ev, b) => `At ${at(ev.time_ms)} ${b.old} wakes up. It finds its lease expired and stops leading, but the write it checked for before the pause is already on its way, carrying token ${b.oldToken}.`,
};

/**
 * The stories, in menu order. `speed` is the suggested playback rate; `beats` open with an
 * `intro` shown from time 0.
 */
export const PRESETS = [
  {
    id: "gc-pause-fenced",
    title: "GC pause, fenced",
    blurb: "A paused leader's write meets a fencing token",
    speed: 0.25,
    scenario: scenario("lease-fencing", 3, 7000, [[1500, { type: "pause-after-check", node: 1, duration_ms: 4000 }]]),
    intro: "Three contenders race for one lease at the store. The winner gets a fencing token and installs it at the resource before it writes.",
    beats: [leaseWinner, pauseAfterCheck, takeover, wakes,
      {
        when: (ev, b) => ev.event === "write" && !ev.accepted && n(ev.from) === b.old,
        say: (ev, b) => `The resource has seen token ${ev.required}, so it refuses ${b.old}'s write: presented ${ev.presented}, required ${ev.required}. No stale write is accepted.`,
      }],
    cites: ["Martin Kleppmann, “How to do distributed locking” (2016): the pause after the lease check, and fencing tokens as the fix."],
  },
  {
    id: "gc-pause-unfenced",
    title: "GC pause, no fencing",
    blurb: "The same pause, and nothing stops the stale write",
    speed: 0.25,
    scenario: scenario("lease-unfenced", 3, 7000, [[1500, { type: "pause-after-check", node: 1, duration_ms: 4000 }]]),
    intro: "The same cluster and the same pause, but the resource does not check fencing tokens.",
    beats: [
      { ...leaseWinner, say: (ev, b, c) => `${b.old} wins the lease at ${at(ev.time_ms)} (token ${b.oldToken}) and writes every ${leaseNote(c).write} ms, checking its lease before each write. The resource will not look at the token.` },
      pauseAfterCheck, takeover, wakes,
      {
        when: (ev, b) => ev.event === "write" && ev.accepted && ev.stale && n(ev.from) === b.old,
        say: (ev, b) => `Without fencing the resource accepts ${b.old}'s write with token ${ev.token}, after ${b.new}'s token ${ev.required}: a stale write from a deposed leader has overwritten newer data.`,
      }],
    cites: ["Martin Kleppmann, “How to do distributed locking” (2016): why a lease alone cannot protect a resource."],
  },
  {
    id: "renewal-failure",
    title: "Renewal failure, self-demotion",
    blurb: "A leader that cannot renew steps down before its lease ends",
    speed: 0.25,
    scenario: scenario("lease-fencing", 3, 8000, [
      [1500, { type: "partition", groups: [[1], ["store"]] }],
      [6000, { type: "heal" }],
    ]),
    intro: "Three contenders race for one lease. The winner renews it every third of the TTL.",
    beats: [
      { ...leaseWinner, say: (ev, b, c) => `${b.old} wins the lease at ${at(ev.time_ms)} with token ${b.oldToken} and renews it every ${leaseNote(c).renew} ms (a ${span(leaseNote(c).ttl)} TTL).` },
      {
        when: (ev, b) => ev.event === "fault" && ev.fault.type === "partition",
        say: (ev, b) => `At ${at(ev.time_ms)} the link between ${b.old} and the store is cut. ${b.old}'s renewals will vanish; no error ever comes back.`,
      },
      {
        when: (ev, b) => ev.event === "drop" && ev.msg === "Renew" && n(ev.from) === b.old,
        say: (ev, b, c) => `${b.old}'s renewal is lost on the cut link (${at(ev.time_ms)}). It keeps leading only until its local deadline: the send time of its last confirmed renewal, plus the TTL, minus the ${leaseNote(c).margin} ms safety margin.`,
      },
      {
        when: (ev, b) => isNode(ev, "stepped-down") && n(ev.proc) === b.old,
        bind: (ev, b) => (b.downAt = ev.time_ms),
        say: (ev, b) => `At ${at(ev.time_ms)} ${b.old}'s local deadline passes: it steps down by itself (store unreachable) and stops writing, before the store expires its lease.`,
      },
      {
        when: (ev, b) => led(ev) && n(ev.proc) !== b.old,
        bind: (ev, b) => (b.new = n(ev.proc)),
        say: (ev, b) => `At ${at(ev.time_ms)} the store expires the lease on its own clock and grants token ${ev.value} to ${b.new}. ${b.old} had stopped ${span(ev.time_ms - b.downAt)} earlier: the two never overlap.`,
      },
      {
        when: (ev) => ev.event === "fault" && ev.fault.type === "heal",
        say: (ev, b) => `At ${at(ev.time_ms)} the link heals. ${b.old} asks for the lease again and is told ${b.new} holds it.`,
      },
    ],
    cites: ["Kubernetes bug 23731: renewals failed while the leader kept doing leader work.", "Consul bug 18271: a holder cut off from the servers whose requests hang with no error.", "Apache Curator bug 980: the deadline counts from the renewal's send time, not from noticing the failure."],
  },
  {
    id: "raft-minority",
    title: "Raft minority partition",
    blurb: "The leader ends up on the small side",
    speed: 0.2,
    scenario: scenario("raft", 5, 9000, [
      [2000, { type: "partition", groups: [[4, 5], [1, 2, 3]] }],
      [7000, { type: "heal" }],
    ], { election_timeout_ms: 300, heartbeat_interval_ms: 100, pre_vote: true, check_quorum: true }),
    intro: "Five Raft nodes with PreVote and CheckQuorum. Election timeouts are drawn from [300, 600) ms.",
    beats: [
      {
        when: led,
        bind: (ev, b) => ((b.old = n(ev.proc)), (b.oldTerm = String(ev.value))),
        say: (ev, b, c) => `At ${at(ev.time_ms)} ${b.old} wins term ${b.oldTerm} and sends heartbeats every ${c.heartbeat_interval_ms} ms. The leader also appends a client command every ${c.propose_interval_ms} ms: watch the logs fill.`,
      },
      {
        when: (ev) => ev.event === "fault" && ev.fault.type === "partition",
        bind: (ev, b) => {
          const groups = ev.fault.groups.map((g) => g.map(n));
          b.minority = groups.find((g) => g.includes(b.old)) ?? [];
          b.majority = groups.find((g) => !g.includes(b.old)) ?? [];
        },
        say: (ev, b) => `At ${at(ev.time_ms)} the network splits: {${b.minority.join(", ")}} on one side, {${b.majority.join(", ")}} on the other. The leader ${b.old} is on the ${b.minority.length < b.majority.length ? "minority" : "majority"} side.`,
      },
      {
        when: (ev, b) => isNode(ev, "stepped-down") && n(ev.proc) === b.old,
        say: (ev, b) => `At ${at(ev.time_ms)} CheckQuorum: ${b.old} has not heard from a majority, so it steps down. The minority has no leader and cannot elect one: ${b.minority.length} votes are not a quorum.`,
      },
      {
        when: (ev, b) => led(ev) && b.majority?.includes(n(ev.proc)),
        bind: (ev, b) => ((b.new = n(ev.proc)), (b.newTerm = String(ev.value))),
        say: (ev, b) => `At ${at(ev.time_ms)} the majority side elects ${b.new} in term ${b.newTerm}: ${b.majority.length} votes out of ${b.majority.length + b.minority.length} is a quorum.`,
      },
      {
        when: (ev, b) => isNode(ev, "became-pre-candidate") && b.minority?.includes(n(ev.proc)),
        say: (ev, b) => `At ${at(ev.time_ms)} ${n(ev.proc)} times out and asks for pre-votes first. The partition drops its requests, and with PreVote it stays in term ${ev.value} instead of raising it.`,
      },
      {
        when: (ev) => ev.event === "fault" && ev.fault.type === "heal",
        say: (ev, b) => `At ${at(ev.time_ms)} the partition heals. ${b.minority.join(" and ")} hear ${b.new}'s heartbeats and follow it in term ${b.newTerm}: no disruptive election, and their logs catch up.`,
      },
    ],
    cites: ["Ongaro and Ousterhout, “In Search of an Understandable Consensus Algorithm” (the Raft paper, 2014), section 5.2.", "Diego Ongaro's PhD thesis (2014), section 9.6: PreVote and CheckQuorum."],
  },
  {
    id: "bully-partition",
    title: "Bully partition: two coordinators",
    blurb: "No quorum, so each side elects its own",
    speed: 0.1,
    scenario: scenario("bully", 5, 8000, [
      [2000, { type: "partition", groups: [[1, 2], [3, 4, 5]] }],
      [6000, { type: "heal" }],
    ], {}, { latency_ms: [5, 30] }),
    intro: "Bully: the highest live id becomes coordinator.",
    beats: [
      {
        when: led,
        bind: (ev, b) => (b.old = n(ev.proc)),
        say: (ev, b) => `${b.old} has the highest id and becomes coordinator at ${at(ev.time_ms)}, in epoch ${ev.value}.`,
      },
      {
        when: (ev) => ev.event === "fault" && ev.fault.type === "partition",
        say: (ev) => `At ${at(ev.time_ms)} the network splits ${ev.fault.groups.map((g) => `{${g.map(n).join(", ")}}`).join(" from ")}.`,
      },
      {
        when: (ev, b) => led(ev) && n(ev.proc) !== b.old,
        bind: (ev, b) => ((b.new = n(ev.proc)), (b.splitAt = ev.time_ms)),
        say: (ev, b) => `At ${at(ev.time_ms)} ${b.new} has stopped hearing ${b.old}; it is the highest id it can reach, so it declares itself coordinator (epoch ${ev.value}). Two coordinators at once: Bully has no quorum to prevent it. The shaded band on the timeline is the split-brain window.`,
      },
      {
        when: (ev) => ev.event === "fault" && ev.fault.type === "heal",
        say: (ev) => `At ${at(ev.time_ms)} the partition heals.`,
      },
      {
        when: (ev, b) => isNode(ev, "stepped-down") && n(ev.proc) === b.new,
        say: (ev, b) => `At ${at(ev.time_ms)} ${b.new} hears ${b.old}'s higher id and steps down: the split-brain window closes after ${span(ev.time_ms - b.splitAt)}.`,
      },
    ],
    cites: ["Héctor García-Molina, “Elections in a Distributed Computing System” (IEEE Transactions on Computers, 1982): the Bully algorithm, which assumes a network that does not partition."],
  },
  {
    id: "generations",
    title: "Generations 41 and 42",
    blurb: "A slow command from an old generation arrives late",
    speed: 0.25,
    scenario: scenario("lease-fencing", 3, 11000, [
      [1400, { type: "link-latency", from: [1], to: ["resource"], min_ms: 4000, max_ms: 4000 }],
      [1500, { type: "pause", target: 1, duration_ms: 4000 }],
      [7000, { type: "store-outage", duration_ms: 3000 }],
    ], { first_token: 41 }),
    intro: "A control plane hands out generations: each new leader gets the next number, and the resource refuses commands from an older one. Forty generations came before this run.",
    beats: [
      {
        when: led,
        bind: (ev, b) => ((b.old = n(ev.proc)), (b.oldGen = String(ev.value))),
        say: (ev, b) => `At ${at(ev.time_ms)} ${b.old} leads with generation ${b.oldGen} and installs it at the resource.`,
      },
      {
        when: (ev) => ev.event === "fault" && ev.fault.type === "link-latency",
        say: (ev, b) => `At ${at(ev.time_ms)} ${b.old}'s link to the resource turns slow: its commands now take ${span(ev.fault.min_ms)} to arrive.`,
      },
      {
        when: (ev, b) => isNode(ev, "paused") && n(ev.proc) === b.old,
        say: (ev, b) => `At ${at(ev.time_ms)} ${b.old} pauses. Its last command, with generation ${b.oldGen}, is still on the wire.`,
      },
      {
        when: (ev, b) => led(ev) && n(ev.proc) !== b.old,
        bind: (ev, b) => ((b.new = n(ev.proc)), (b.newGen = String(ev.value))),
        say: (ev, b) => `At ${at(ev.time_ms)} ${b.old}'s lease has lapsed: ${b.new} is granted generation ${b.newGen}, installs it at the resource and waits for the confirmation before acting.`,
      },
      {
        when: (ev, b) => ev.event === "write" && !ev.accepted && n(ev.from) === b.old,
        say: (ev, b) => `At ${at(ev.time_ms)} ${b.old}'s old command finally arrives with generation ${ev.presented}: refused, presented ${ev.presented}, required ${ev.required}.`,
      },
      {
        when: (ev, b) => isNode(ev, "stepped-down") && n(ev.proc) === b.old,
        say: (ev, b) => `At ${at(ev.time_ms)} ${b.old} resumes, checks its lease, and steps down on its own.`,
      },
      {
        when: (ev) => isNode(ev, "outage-started"),
        say: (ev) => `At ${at(ev.time_ms)} the store loses its majority (an outage). No grant or renewal can be issued...`,
      },
      {
        when: (ev, b) => isNode(ev, "stepped-down") && n(ev.proc) === b.new,
        say: (ev, b) => `...so at ${at(ev.time_ms)} ${b.new}'s local deadline passes: it stops, and new work waits. Nobody leads.`,
      },
      {
        when: (ev, b) => led(ev) && String(ev.value) !== b.newGen && String(ev.value) !== b.oldGen,
        say: (ev) => `At ${at(ev.time_ms)} the store is back: ${n(ev.proc)} is granted generation ${ev.value} and installs it at the resource before acting.`,
      },
    ],
    cites: ["The control-plane hand-off: a new leader installs its generation at the resource and waits for the confirmation before it issues commands, so a deposed leader's late command is refused. Fencing as in Martin Kleppmann, “How to do distributed locking” (2016)."],
  },
  {
    id: "clock-drift",
    title: "Clock drift beyond the margin",
    blurb: "A slow clock outlives its lease; fencing catches it",
    speed: 0.25,
    scenario: scenario("lease-fencing", 3, 7000, [
      [0, { type: "clock-drift", target: 1, ppm: -400000 }],
      [1500, { type: "partition", groups: [[1], ["store"]] }],
      [6000, { type: "heal" }],
    ]),
    intro: "One contender's clock is about to run slow. A lease's safety margin only covers a bounded clock-rate difference.",
    beats: [
      {
        when: (ev) => ev.event === "fault" && ev.fault.type === "clock-drift",
        say: (ev, b, c) => {
          const { margin, ttl } = leaseNote(c);
          return `${n(ev.fault.target)}'s clock runs ${Math.abs(ev.fault.ppm / 10000)}% slow. The safety margin (${margin} ms of a ${span(ttl)} TTL) only covers ${Math.round((margin / ttl) * 100)}% drift.`;
        },
      },
      { ...leaseWinner, say: (ev, b) => `At ${at(ev.time_ms)} ${b.old} wins the lease with token ${b.oldToken}.` },
      {
        when: (ev) => ev.event === "fault" && ev.fault.type === "partition",
        say: (ev, b) => `At ${at(ev.time_ms)} ${b.old} is cut off from the store. It should step down at its local deadline...`,
      },
      {
        when: (ev, b) => led(ev) && n(ev.proc) !== b.old,
        bind: (ev, b) => (b.new = n(ev.proc)),
        say: (ev, b) => `...but its slow clock reaches that deadline late. At ${at(ev.time_ms)} the store expires ${b.old}'s lease and grants token ${ev.value} to ${b.new}, while ${b.old} still believes it leads: split brain.`,
      },
      {
        when: (ev, b) => ev.event === "write" && !ev.accepted && n(ev.from) === b.old,
        say: (ev, b) => `At ${at(ev.time_ms)} ${b.old}'s late write with token ${ev.presented} reaches the resource, which has seen ${ev.required}: refused. Fencing catches what the margin could not.`,
      },
      {
        when: (ev, b) => isNode(ev, "stepped-down") && n(ev.proc) === b.old,
        say: (ev, b) => `At ${at(ev.time_ms)} the refusal tells ${b.old} it was fenced, and it steps down.`,
      },
    ],
    cites: ["Martin Kleppmann, “How to do distributed locking” (2016): leases assume bounded clock drift.", "Gray and Cheriton, “Leases: An Efficient Fault-Tolerant Mechanism for Distributed File Cache Consistency” (SOSP 1989): leases rely on clocks that run at about the same rate.", "HashiCorp Raft bug 108 and etcd bug 12291: clocks that jump."],
  },
];

/**
 * The preset with `id`, or undefined. A counterexample's story (`search:<property>`) is found
 * once registered: one made on this page, or rebuilt from a permalink's scenario by the
 * element (counterexample.js, loaded only for such a link).
 */
export function presetById(id) {
  return PRESETS.find((p) => p.id === id) ?? EXTRA.get(id);
}

/** Stories made on the page (a counterexample), found by `presetById` as the others are. */
const EXTRA = new Map();

/** Makes `story` (a preset-shaped object) loadable by its id; returns it. */
export function registerStory(story) {
  EXTRA.set(story.id, story);
  return story;
}
