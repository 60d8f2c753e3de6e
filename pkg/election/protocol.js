// The one place that translates between the machine's shapes and the store protocol
// (pkg/README.md "The store contract"; design rules 8-9).
//
//   machine (LeaseCandidate)                       store protocol
//   { type, id, key, holder: bigint, ... }   ->    { type, key, holder: string, session: string, ... }
//   { type, id, key, ... } (id, key echoed)  <-    { type, ... } (paired with its request here)
//
// The machine's holder is a u64: a nodeId that is a bigint or a decimal u64 string is that
// number; any other string is hashed (FNV-1a, 64 bits). The store sees the nodeId string and
// this instance's session string. Answers are read strictly: a wrong shape is a breach,
// reported with the request and the reply, never dropped silently.
//
// The machine is probed once for what it accepts (an absent Held.holder, the reason
// "Unknown", a session field) so that this module works with today's LeaseCandidate and with
// one that has grown those shapes; `machineCaps()` says what was found.
import { LeaseCandidate } from "../dist/tenure.js";
import { withArticle } from "../guard.js";

const U64_MAX = (1n << 64n) - 1n;
const DECIMAL_U64 = /^(0|[1-9][0-9]{0,19})$/;

export const REJECT_REASONS = ["NotHolder", "TokenMismatch", "Expired", "TokensExhausted", "Unknown"];

/** The answers each request type may get. */
const FITS = {
  Acquire: ["Granted", "Held", "Rejected"],
  Renew: ["Renewed", "Rejected"],
  Release: ["Released", "Rejected"],
};

/** The keys each answer type may carry (`key` may be echoed by any). */
const REPLY_KEYS = {
  Granted: ["type", "token", "ttl_ms", "key"],
  Held: ["type", "holder", "remaining_ms", "key"],
  Renewed: ["type", "token", "ttl_ms", "key"],
  Released: ["type", "key"],
  Rejected: ["type", "reason", "key"],
};

/** The machine's u64 holder for a nodeId (bigint or string). */
export function machineHolder(nodeId) {
  if (typeof nodeId === "bigint") return nodeId;
  if (DECIMAL_U64.test(nodeId)) {
    const n = BigInt(nodeId);
    if (n <= U64_MAX) return n;
  }
  return fnv1a64(nodeId);
}

/** FNV-1a over the UTF-16 code units of `s`, 64 bits. */
function fnv1a64(s) {
  let h = 0xcbf29ce484222325n;
  for (let i = 0; i < s.length; i++) {
    h ^= BigInt(s.charCodeAt(i));
    h = (h * 0x100000001b3n) & U64_MAX;
  }
  return h;
}

let caps;

/** What the loaded LeaseCandidate accepts, probed once on a throwaway instance. */
export function machineCaps() {
  if (caps !== undefined) return caps;
  let c;
  try {
    c = new LeaseCandidate({ seed: 1n, key: "probe" });
  } catch (err) {
    const e = new Error('tenure: LeaderElection and MemoryStore need the wasm module; in browsers, call `await init()` (exported by "tenure") once first', { cause: err });
    e.code = "ERR_NOT_INITIALIZED";
    throw e;
  }
  const accepts = (response) => {
    try {
      c.handleResponse(0, { id: 1n << 40n, key: "probe", ...response });
      return true;
    } catch {
      return false;
    }
  };
  try {
    c.campaign(0);
    const sent = c.pollOutput();
    caps = {
      heldWithoutHolder: accepts({ type: "Held", holder: null, remaining_ms: null }),
      unknownReason: accepts({ type: "Rejected", reason: "Unknown" }),
      session: sent?.type === "Send" && "session" in sent.request,
      clashEvent: false,
    };
    // A machine that knows identity clashes says so when Held names its own holder.
    if (sent?.type === "Send") {
      try {
        c.handleResponse(0, { type: "Held", id: sent.request.id, key: "probe", holder: c.config.holder, remaining_ms: 1000 });
        for (let out = c.pollOutput(); out !== undefined; out = c.pollOutput()) {
          if (out.type === "Event" && out.event.type === "HolderClash") caps.clashEvent = true;
        }
      } catch {
        // No clash event, then.
      }
    }
  } finally {
    c.free();
  }
  return caps;
}

/** The store-protocol request for one the machine sent. */
export function toStoreRequest(request, identity) {
  const out = { type: request.type, key: request.key, holder: identity.holder, session: identity.session };
  if (request.type !== "Acquire") out.token = request.token;
  if (request.type !== "Release") out.ttl_ms = request.ttl_ms;
  return out;
}

const isPlainObject = (v) => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

const describe = (v) => {
  if (v === null) return "null";
  if (typeof v === "bigint") return `${v}n`;
  if (typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return v.constructor?.name && v.constructor !== Object ? withArticle(v.constructor.name) : "an object";
  if (v === undefined) return "undefined";
  return `${typeof v} ${String(v)}`;
};

const isToken = (v) => typeof v === "bigint" && v >= 0n && v <= U64_MAX;
const isMillis = (v) => typeof v === "number" && Number.isFinite(v) && v >= 0;

/**
 * Reads a store's answer to `request` (store-protocol shapes). Returns `{ ok: true, reply }`
 * with a normalized copy (times floored to whole microseconds), or `{ ok: false, code,
 * message }`: `ERR_STORE_REPLY` for a wrong shape or an answer that does not fit the request,
 * `ERR_STORE_CONTRACT` for a readable answer that breaks the contract (a renewal that changed
 * the token). `undefined` (no answer) is not read here.
 */
export function readReply(request, reply) {
  try {
    return read(request, reply);
  } catch (err) {
    // A getter or proxy trap in the answer threw while it was read.
    return { ok: false, code: "ERR_STORE_REPLY", message: `reading the store's answer to ${request.type} threw: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function read(request, reply) {
  const bad = (message, code = "ERR_STORE_REPLY") => ({ ok: false, code, message });
  if (!isPlainObject(reply)) return bad(`the store answered ${request.type} with ${describe(reply)}, not a reply object`);
  const type = reply.type;
  const keys = REPLY_KEYS[type];
  if (typeof type !== "string" || keys === undefined) {
    return bad(`the store answered ${request.type} with type ${describe(type)}; expected one of ${FITS[request.type].join(", ")}`);
  }
  if (!FITS[request.type].includes(type)) {
    return bad(`the store answered ${request.type} with ${type}; ${withArticle(request.type)} is answered by ${FITS[request.type].join(", ")}`);
  }
  for (const k of Object.keys(reply)) {
    if (!keys.includes(k)) return bad(`the store's ${type} has an unknown field "${k}" (${withArticle(type)} has ${keys.filter((x) => x !== "type").join(", ") || "no fields"})`);
  }
  if ("key" in reply && reply.key !== request.key) {
    return bad(`the store's ${type} is for key ${describe(reply.key)}, the request was for ${describe(request.key)}`);
  }
  switch (type) {
    case "Granted":
    case "Renewed": {
      if (!isToken(reply.token)) return bad(`the store's ${type}.token is ${describe(reply.token)}, not a bigint from 0n to 2n ** 64n - 1n`);
      if (!isMillis(reply.ttl_ms) || reply.ttl_ms <= 0) return bad(`the store's ${type}.ttl_ms is ${describe(reply.ttl_ms)}, not a positive number of ms`);
      if (type === "Renewed" && reply.token !== request.token) {
        return bad(`the store renewed token ${request.token}n as ${reply.token}n: Renew must never change the token`, "ERR_STORE_CONTRACT");
      }
      return { ok: true, reply: { type, token: reply.token, ttl_ms: floorMicros(reply.ttl_ms) } };
    }
    case "Held": {
      if (reply.holder !== undefined && typeof reply.holder !== "string") return bad(`the store's Held.holder is ${describe(reply.holder)}, not a string`);
      if (reply.remaining_ms !== undefined && !isMillis(reply.remaining_ms)) return bad(`the store's Held.remaining_ms is ${describe(reply.remaining_ms)}, not a number of ms >= 0`);
      const out = { type };
      if (reply.holder !== undefined) out.holder = reply.holder;
      if (reply.remaining_ms !== undefined) out.remaining_ms = floorMicros(reply.remaining_ms);
      return { ok: true, reply: out };
    }
    case "Released":
      return { ok: true, reply: { type } };
    default: {
      if (!REJECT_REASONS.includes(reply.reason)) return bad(`the store's Rejected.reason is ${describe(reply.reason)}; expected one of ${REJECT_REASONS.join(", ")}`);
      return { ok: true, reply: { type, reason: reply.reason } };
    }
  }
}

/**
 * The machine's response for a read store reply to the machine's `request`. `own` is this
 * election's identity ({ holder: nodeId string, machineHolder: bigint }).
 */
export function toMachineResponse(request, reply, own) {
  const c = machineCaps();
  const head = { id: request.id, key: request.key };
  switch (reply.type) {
    case "Held": {
      // A Held naming our own nodeId is an identity clash (design rule 8): the machine gets
      // its own holder, so one that knows clashes can say so.
      let holder;
      if (reply.holder === own.holder) holder = own.machineHolder;
      else if (reply.holder !== undefined) holder = otherHolder(machineHolder(reply.holder), own.machineHolder);
      else holder = c.heldWithoutHolder ? null : otherHolder(0n, own.machineHolder);
      const remaining = reply.remaining_ms ?? (c.heldWithoutHolder ? null : 0);
      return { type: "Held", ...head, holder, remaining_ms: remaining };
    }
    case "Rejected":
      // Today's machine treats every refusal of a renewal alike; "Unknown" reads as NotHolder.
      return { type: "Rejected", ...head, reason: reply.reason === "Unknown" && !c.unknownReason ? "NotHolder" : reply.reason };
    default:
      return { ...reply, ...head };
  }
}

const otherHolder = (h, own) => (h === own ? h ^ 1n : h);

function floorMicros(ms) {
  return Math.floor(ms * 1000 + 1e-6) / 1000;
}
