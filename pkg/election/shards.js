export class ShardedElection {}
