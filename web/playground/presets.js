// Presets: each is a scenario (the same JSON the CLI runs) plus a caption script that tells
// its story as it plays. Every case comes from the design notes (scenario ids S01-S16).
// Node ids and times were chosen by running the scenario: with its seed, the replay is exact.

const NET = { latency_ms: [5, 30] };

/** @param {string} algorithm @param {number} nodes @param {object[]} faults */
function scenario(algorithm, nodes, durationMs, faults, config = {}) {
  return {
    version: 1,
    algorithm,
    nodes,
    config,
    network: NET,
    seed: 7,
    duration_ms: durationMs,
    faults: faults.map(([at_ms, fault]) => ({ at_ms, fault })),
  };
}

const gcPauseFaults = [[1500, { type: "pause-after-check", node: 1, duration_ms: 4000 }]];

/**
 * The presets, in menu order. `caption` is a list of [at_ms, text]: the text shown from that
 * moment of simulated time on. `speed` is the suggested playback rate.
 */
export const PRESETS = [
  {
    id: "gc-pause-fenced",
    title: "GC pause, fenced",
    source: "S01 (Kleppmann 2016)",
    speed: 0.5,
    scenario: scenario("lease-fencing", 3, 7000, gcPauseFaults),
    caption: [
      [0, "Three contenders race for one lease at the store. The winner gets fencing token 1 and installs it at the resource before writing."],
      [300, "n1 leads with token 1 and writes to the resource every 100 ms, checking its lease before each write."],
      [1500, "n1 passes its lease check... and freezes right after it, before the write leaves: a stop-the-world GC pause of 4 s."],
      [2200, "The store knows nothing of the pause. It only sees that n1 stopped renewing."],
      [3452, "n1's lease has expired on the store's clock. n2 is granted token 2 and establishes it at the resource."],
      [5550, "n1 wakes up and its write with token 1 goes out, as if nothing happened."],
      [5565, "The resource has seen token 2, so it rejects token 1: presented 1, required 2. Zero stale writes accepted."],
    ],
  },
  {
    id: "gc-pause-unfenced",
    title: "GC pause, no fencing",
    source: "S01 without tokens",
    speed: 0.5,
    scenario: scenario("lease-unfenced", 3, 7000, gcPauseFaults),
    caption: [
      [0, "The same cluster and the same pause, but the resource does not check fencing tokens."],
      [1500, "n1 passes its lease check and freezes for 4 s before its write leaves."],
      [3452, "The lease lapses on the store and n2 takes over with token 2."],
      [5530, "n1 wakes up and sends its write with the old token 1."],
      [5540, "Without fencing the resource accepts it: a stale write from a deposed leader has corrupted the data."],
    ],
  },
  {
    id: "renewal-failure",
    title: "Renewal failure, self-demotion",
    source: "S04, S06, S15c",
    speed: 0.5,
    scenario: scenario("lease-fencing", 3, 8000, [
      [1500, { type: "partition", groups: [[1], ["store"]] }],
      [6000, { type: "heal" }],
    ]),
    caption: [
      [0, "n1 wins the lease and renews it every third of the TTL."],
      [1500, "The link between n1 and the store is cut. n1's renewals vanish; no error ever comes back."],
      [1600, "n1 keeps leading only until its local deadline: the send time of its last confirmed renewal, plus the TTL, minus the safety margin."],
      [3034, "Deadline reached: n1 steps down by itself (store unreachable). It stops writing before the store expires its lease."],
      [3452, "The store expires the lease on its own clock, and n2 takes over with token 2. The two never overlap."],
      [6000, "The link heals. n1 rejoins as a follower."],
    ],
  },
  {
    id: "raft-minority",
    title: "Raft minority partition",
    source: "Raft §5.2, CheckQuorum",
    speed: 0.25,
    scenario: scenario("raft", 5, 9000, [
      [2000, { type: "partition", groups: [[1, 3], [2, 4, 5]] }],
      [7000, { type: "heal" }],
    ], { election_timeout_ms: 300, heartbeat_ms: 100, pre_vote: true, check_quorum: true }),
    caption: [
      [0, "Five Raft nodes with PreVote and CheckQuorum. Election timeouts are drawn from [300, 600) ms."],
      [400, "n3 wins term 1 and sends heartbeats."],
      [2000, "The network splits: {n1, n3} on one side, {n2, n4, n5} on the other. The leader n3 is in the minority."],
      [2443, "The majority side elects n5 in term 2: three votes out of five is a quorum."],
      [2482, "CheckQuorum: n3 has not heard from a majority, so it steps down. The minority now has no leader, and cannot elect one: two votes are not a quorum."],
      [3000, "With PreVote, n1 and n3 ask before campaigning, are refused, and do not inflate their terms."],
      [7000, "The partition heals. n1 and n3 rejoin as followers of n5 in term 2: no disruptive election."],
    ],
  },
  {
    id: "bully-partition",
    title: "Bully partition: two coordinators",
    source: "S14, DESIGN rule 7",
    speed: 0.25,
    scenario: scenario("bully", 5, 8000, [
      [2000, { type: "partition", groups: [[1, 2], [3, 4, 5]] }],
      [6000, { type: "heal" }],
    ]),
    caption: [
      [0, "Bully: the highest live id becomes coordinator. n5 wins at once."],
      [2000, "The network splits {n1, n2} from {n3, n4, n5}."],
      [2205, "n1 and n2 stop hearing n5. n2 is the highest id it can reach, so it declares itself coordinator."],
      [2500, "Two coordinators at once: Bully has no quorum, so it cannot prevent this. The red band is the split-brain window."],
      [6030, "The partition heals. n2 hears n5's higher id and steps down."],
    ],
  },
  {
    id: "generations",
    title: "Generations 41 and 42",
    source: "S16 (control-plane hand-off)",
    speed: 0.5,
    scenario: scenario("lease-fencing", 3, 11000, [
      [1400, { type: "link-latency", from: [1], to: ["resource"], min_ms: 4000, max_ms: 4000 }],
      [1500, { type: "pause", target: 1, duration_ms: 4000 }],
      [7000, { type: "store-outage", duration_ms: 3000 }],
    ]),
    caption: [
      [0, "A control plane hands out generations. Here n1 (\"A\") leads with generation 1, the note's 41."],
      [1400, "A's link to the resource turns slow: its commands now take 4 s to arrive."],
      [1500, "A pauses. Its last command, with generation 1, is still on the wire."],
      [3452, "A's lease lapses. n2 (\"B\") is granted generation 2 (the note's 42), calls establish(2) at the resource and waits for the confirmation before acting."],
      [5453, "A's old command finally arrives with generation 1: rejected, presented 1, required 2."],
      [5500, "A resumes, checks its lease, and steps down on its own."],
      [7000, "The store loses its majority (an outage). No new grant is issued..."],
      [8450, "...so B's lease runs out, B stops, and new work waits: nobody leads."],
      [10141, "The store is back; the next leader gets generation 3 and establishes it first."],
    ],
  },
  {
    id: "clock-drift",
    title: "Clock drift beyond the margin",
    source: "DESIGN rule 5, S08",
    speed: 0.5,
    scenario: scenario("lease-fencing", 3, 7000, [
      [0, { type: "clock-drift", target: 1, ppm: -400000 }],
      [1500, { type: "partition", groups: [[1], ["store"]] }],
      [6000, { type: "heal" }],
    ]),
    caption: [
      [0, "n1's clock runs 40% slow. The safety margin (300 ms of a 2 s TTL) only covers 15% drift."],
      [1500, "n1 is cut off from the store. It should step down at its local deadline..."],
      [3000, "...but its slow clock reaches that deadline late in real time."],
      [3452, "The store expires n1's lease and grants token 2 to n2, while n1 still believes it leads: split brain."],
      [3580, "n1's late write with token 1 reaches the resource, which has seen 2: rejected. Fencing catches what the margin could not."],
      [3603, "The rejection tells n1 it was fenced, and it steps down."],
    ],
  },
];

/** The preset with `id`, or undefined. */
export function presetById(id) {
  return PRESETS.find((p) => p.id === id);
}

/** The caption line for simulated time `ms`: the last entry at or before it. */
export function captionAt(preset, ms) {
  let text = "";
  for (const [at, line] of preset.caption) if (at <= ms) text = line;
  return text;
}
