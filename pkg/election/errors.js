// The errors LeaderElection raises: LeadershipExpiredError (thrown by assertLeadership, the
// abort reason of withLeadership's signal) and StoreError (the payload of `error` events).

/**
 * Thrown when this node may not act as leader: `code` is `ERR_LEADERSHIP_EXPIRED` (the local
 * deadline passed, or leadership ended: `reason` says how) or `ERR_NOT_LEADER` (not leading).
 */
export class LeadershipExpiredError extends Error {
  constructor(message, { code, key, state, reason, token, deadlineMs, nowMs }) {
    super(message);
    this.name = "LeadershipExpiredError";
    this.code = code;
    this.key = key;
    this.state = state;
    this.reason = reason;
    this.token = token;
    this.deadlineMs = deadlineMs;
    this.nowMs = nowMs;
  }
}

/**
 * A store failure or an answer the driver could not read (design rule 9): emitted as an
 * `error` event, never thrown at the host. `request` is what was sent (store protocol shape),
 * `reply` what came back (or `undefined`), `cause` the thrown value if any.
 */
export class StoreError extends Error {
  constructor(message, { code, key, request, reply, cause }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "StoreError";
    this.code = code;
    this.key = key;
    this.request = request;
    this.reply = reply;
  }
}

/** A TypeError/RangeError with a `code`, for misuse of the driver's own API. */
export function misuse(Class, code, message) {
  const err = new Class(message);
  err.code = code;
  return err;
}

/**
 * The error for a command given after `close()`: a LeadershipExpiredError with code
 * `ERR_CLOSED` (LeaderElection's campaign() and withLeadership(), ShardedElection's start()).
 */
export function closedError(call, why = "the election was closed") {
  return new LeadershipExpiredError(`${call}: ${why}`, { code: "ERR_CLOSED", reason: "Closed" });
}
