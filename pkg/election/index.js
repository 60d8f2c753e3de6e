// The driver layer of `tenure`: LeaderElection over a store, the in-memory store, leadership
// per partition, and their errors. Both package entries re-export this file.
export { LeaderElection } from "./election.js";
export { MemoryStore } from "./memory-store.js";
export { ShardedElection } from "./shards.js";
export { LeadershipExpiredError, StoreError } from "./errors.js";
