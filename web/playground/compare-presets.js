// Compare presets: the sources' comparison rows as runs. Each is a list of panes (playground
// algorithm choices), a world (nodes, seed, network, length) and a fault schedule that every
// pane gets at the same instants. A fault may name "leader" instead of a node: each pane
// resolves it to the node acting as its own leader at that instant (the leader differs by
// algorithm), and skips it when none leads.

/** Slow enough links for motion, as in the stories. */
const NET = { latency_ms: [15, 45] };

export const COMPARE_PRESETS = [
  {
    id: "partition",
    title: "Network partition",
    blurb: "Raft stays safe, Bully elects two coordinators, a fenced lease stays safe",
    panes: ["raft", "bully", "lease-fencing"],
    nodes: 5,
    // Seed 1: Raft's first leader is on the majority side. With seeds whose Raft leader is
    // cut off (2, 3, 4...), plain Raft keeps a deposed leader acting in the minority (it can
    // commit nothing) until CheckQuorum would have stepped it down: compare "Raft" with
    // "Raft + PreVote + CheckQuorum" there.
    seed: 1,
    durationMs: 9000,
    network: { latency_ms: [5, 30] },
    // The two highest ids lose the majority (and the store, which stays with it).
    schedule: [
      [2000, { type: "partition", groups: [[4, 5], [1, 2, 3, "store", "resource"]] }],
      [6000, { type: "heal" }],
    ],
  },
  {
    id: "gc-pause",
    title: "GC pause of the leader",
    blurb: "A stale write: accepted without fencing, refused with it",
    panes: ["lease-unfenced", "lease-fencing"],
    nodes: 3,
    seed: 7,
    durationMs: 7000,
    network: NET,
    schedule: [[1500, { type: "pause-after-check", node: "leader", duration_ms: 4000 }]],
  },
  {
    id: "clock-drift",
    title: "Clock drift beyond the margin",
    blurb: "A slow clock outlives its lease: Raft does not care, fencing catches it",
    panes: ["raft-pv-cq", "lease-unfenced", "lease-fencing"],
    nodes: 3,
    seed: 7,
    durationMs: 7000,
    network: NET,
    schedule: [
      [1000, { type: "clock-drift", target: "leader", ppm: -400000 }],
      // The leader loses the store (renewals fail) but still reaches the resource.
      [1500, { type: "partition", groups: [["leader"], ["store"]] }],
      [6000, { type: "heal" }],
    ],
  },
  {
    id: "leader-crash",
    title: "Leader crash",
    blurb: "Failover time per algorithm",
    panes: ["raft-pv-cq", "bully", "lease-fencing"],
    nodes: 5,
    seed: 7,
    durationMs: 7000,
    network: { latency_ms: [5, 30] },
    schedule: [[2000, { type: "crash", node: "leader" }]],
  },
];

export function comparePresetById(id) {
  return COMPARE_PRESETS.find((p) => p.id === id);
}
