// The info panel: for each algorithm, in our own words, what it promises, what it does not,
// and when to choose it.

export const ALGORITHMS = [
  ["lease-fencing", "Lease with fencing"],
  ["lease-unfenced", "Lease without fencing"],
  ["raft", "Raft"],
  ["raft-pv-cq", "Raft + PreVote + CheckQuorum"],
  ["bully", "Bully"],
  ["lease-no-margin", "Lease without a safety margin (foil)"],
];

export const INFO = {
  "lease-fencing": {
    promises: "A store grants one lease at a time, each with a larger fencing token. The resource refuses any token lower than the highest it has seen, so a leader that lost its lease cannot write, however long it was paused.",
    not: "Two nodes may briefly both believe they lead (a pause, a slow clock). Fencing makes that harmless only for resources that check tokens.",
    choose: "When leadership guards writes to something you control: a database row, a bucket, a queue. The store needs to be linearizable (etcd, ZooKeeper, Consul).",
  },
  "lease-unfenced": {
    promises: "The same store and leases: at most one valid holder, judged on the store's clock. A careful holder steps down at its local deadline, before the store expires it.",
    not: "Nothing stops a holder that paused after its last check. Its write lands after someone else took over, and the resource cannot tell.",
    choose: "Only when the protected work is idempotent or harmless if done twice. Otherwise add fencing.",
  },
  raft: {
    promises: "At most one leader per term: a leader needs votes from a majority, and each node votes once per term. Terms never go back.",
    not: "An old leader may not know it was replaced; it keeps acting until it hears a higher term. A rejoining node can disrupt a healthy leader by bumping the term.",
    choose: "When the nodes themselves must agree (a replicated log), with no outside store. Needs a majority up and connected.",
  },
  "raft-pv-cq": {
    promises: "Raft's guarantees, plus: PreVote stops a node that cannot win from raising the term, and CheckQuorum makes a leader that lost its majority step down.",
    not: "Same safety as Raft, not more. The gains are in liveness and fewer needless elections.",
    choose: "The default for production Raft (etcd and others enable both).",
  },
  bully: {
    promises: "Eventually, among nodes that can reach each other, the one with the highest id coordinates.",
    not: "No safety under partitions: each side elects its own coordinator. There is no quorum to stop it.",
    choose: "For small, trusted networks where brief double leadership is harmless, or as a teaching example.",
  },
  "lease-no-margin": {
    promises: "It claims what the unfenced lease claims: one valid holder on the store's clock and never two leaders at once. The holder trusts its lease until exactly its send time plus the TTL, on its own clock.",
    not: "A clock that runs a little slow (well within the drift a real lease allows for) keeps the holder leading after the store gave the lease away. Drift a node's clock, then cut it off from the store, and watch the split brain.",
    choose: "Never: it is a teaching foil. It shows why a lease needs a safety margin that covers clock drift (Lease with fencing or without have one).",
    // Its own knobs (setup.js KNOBS format): no margin and no drift bound, keys the
    // simulator refuses for it.
    knobs: [
      ["ttl_ms", "Lease TTL (ms)", 500, 10000, 100, "ms"],
      ["renew_interval_ms", "Renew interval (ms)", 50, 5000, 10, "ms"],
    ],
  },
};
