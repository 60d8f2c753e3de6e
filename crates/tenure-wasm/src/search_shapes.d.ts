// Generated from the search's property list (crates/tenure-sim/src/search/property.rs) by
// crates/tenure-wasm/tests/sim_shapes.rs: do not edit.

/**
 * What a search looks for: "any-promised" (any invariant the algorithm promises),
 * "split-brain", "stale-write", "no-leader-for=2s" (or "=250ms": no leader for
 * longer than that), or an invariant's name such as "election-safety".
 */
export type SearchProperty =
  | "any-promised"
  | "split-brain"
  | "stale-write"
  | "election-safety"
  | "term-monotonic"
  | "log-matching"
  | "leader-completeness"
  | "single-valid-holder"
  | "token-monotonic"
  | "resource-token-monotonic"
  | "token-per-session"
  | "stale-write-accepted"
  | "liveness"
  | `no-leader-for=${number}ms`
  | `no-leader-for=${number}s`
  | `no-leader-for=${number}m`
  | `no-leader-for=${number}h`;
