// tenure/redis: a lease store and a fenced resource on Redis, over the user's own connected
// node-redis client (`redis` v4 or v5). Each operation is one Lua script, one round trip.
// Expiry is Redis's own clock, in whole milliseconds (PX / PTTL).
import { createHash } from "node:crypto";
import { guardThis, notWellFormed, readingInput } from "./guard.js";
import { ACQUIRE, FENCE, RELEASE, RENEW } from "./stores/redis-scripts.js";
import {
  checkWellFormed,
  describe,
  fenceResult,
  readOptions,
  readRequest,
  readStringOption,
  readToken,
  storeError,
  usageError,
} from "./stores/common.js";

const CLIENT = "a connected node-redis client (createClient() from `redis`, after connect())";

/**
 * The client whose promise `sendCommand` the store calls, checked at construction (docs/stores.md,
 * "Clients"): a node-redis client that was never connected (or was closed) is refused, since
 * every command would fail with "The client is closed" far from here, and the store does not
 * own the connection; a v4 client made with `legacyMode: true` is used through `client.v4`, its
 * promise API; v5's callback wrapper `client.legacy()` has no promise API and is refused. A
 * cluster client (`createCluster`, v4 and v5) and v5's `createSentinel` are refused: their
 * `sendCommand` takes the routing first (`(firstKey, isReadonly, args)`, `(isReadonly, args)`),
 * so every request would fail. A v5 `createClientPool` pool is taken: its `sendCommand` is the
 * client's, and each request is one script on one connection.
 */
function promiseClient(store, client) {
  const refuse = (what) => usageError(TypeError, "ERR_STORE_OPTIONS", `new ${store}(options): options.client ${what}`);
  const kind = clientKind(client);
  if (kind === "RedisCluster") {
    throw refuse("is a node-redis cluster client (createCluster), which is not supported: its sendCommand takes the " +
      "slot's key first, so every request would fail. Pass a createClient() client of a standalone Redis server " +
      "(Redis Cluster is not supported)");
  }
  if (kind === "RedisSentinel") {
    throw refuse("is a node-redis Sentinel client (createSentinel), which is not supported: its sendCommand takes " +
      "isReadonly first, so every request would fail. Pass a client (createClient) connected to the current master");
  }
  if (client.constructor?.name === "RedisLegacyClient") {
    throw refuse("is node-redis's callback API (client.legacy()), which answers no promise: pass the client itself, " +
      "the one you called legacy() on, not what legacy() returned");
  }
  if (client.isOpen === false) {
    throw refuse("is not connected (its isOpen is false): call `await client.connect()` first (node-redis v4 and v5 do " +
      "not connect on their own), or pass a client that was not closed; the store never opens or closes your client");
  }
  // node-redis v4 with legacyMode: sendCommand takes a callback; v4 keeps the promise API in `client.v4`.
  if (client.options?.legacyMode === true && typeof client.v4?.sendCommand === "function") return client.v4;
  return client;
}

/**
 * "RedisCluster" or "RedisSentinel" for node-redis's cluster and Sentinel clients (v4, v5), else
 * undefined. Their classes are subclassed per client (v5: "Class", v4: "Commander"), so the
 * prototype chain is searched for the name, and a cluster is also known by its methods (a
 * bundler may rename classes).
 */
function clientKind(client) {
  for (let o = Object.getPrototypeOf(client); o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    const name = o.constructor?.name;
    if (name === "RedisCluster" || name === "RedisSentinel") return name;
  }
  if (typeof client.nodeClient === "function" && typeof client.getSlotRandomNode === "function") return "RedisCluster";
  return undefined;
}

/** A script with its SHA1: EVALSHA first, EVAL once when the server does not know it yet. */
class Script {
  constructor(source) {
    this.source = source;
    this.sha = createHash("sha1").update(source).digest("hex");
  }

  async run(client, keys, args) {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await client.sendCommand(["EVALSHA", this.sha, ...tail]);
    } catch (err) {
      if (!String(err?.message).startsWith("NOSCRIPT")) throw err;
      return client.sendCommand(["EVAL", this.source, ...tail]);
    }
  }
}

const SCRIPTS = {
  Acquire: new Script(ACQUIRE),
  Renew: new Script(RENEW),
  Release: new Script(RELEASE),
  fence: new Script(FENCE),
};

const text = (value) => (typeof value === "string" ? value : Buffer.isBuffer(value) ? value.toString("utf8") : undefined);
const REASONS = new Set(["NotHolder", "TokenMismatch", "Expired", "TokensExhausted"]);

/** The Redis keys of one lease key (one hash slot). */
function leaseKeys(prefix, key) {
  return [`${prefix}{${key}}:lease`, `${prefix}{${key}}:live`];
}

/**
 * The lease store on Redis. A new grant's token is exactly one more than the key's last
 * (rule 2); the current (holder, session) is re-granted with the same token; Renew keeps the
 * token and fails once Redis has expired the lease; Release needs holder, session and token.
 */
export class RedisStore {
  #client;
  #prefix;

  /**
   * @param {{ client: object, prefix?: string }} options `client`: your connected node-redis
   *   client; `prefix` (default "tenure:") starts every Redis key this store uses.
   */
  constructor(options) {
    options = readOptions("RedisStore", options, ["sendCommand"], CLIENT, ["client", "prefix"]);
    this.#client = readingInput(() => promiseClient("RedisStore", options.client));
    this.#prefix = readStringOption("RedisStore", options, "prefix", "tenure:");
  }

  /** Nothing to create on Redis; loads the scripts so the first request is one round trip. */
  async migrate() {
    try {
      for (const script of Object.values(SCRIPTS)) await this.#client.sendCommand(["SCRIPT", "LOAD", script.source]);
    } catch (err) {
      throw storeError("RedisStore", { type: "migrate" }, err);
    }
  }

  /** One request, one script, one round trip. Rejects (code ERR_STORE) if Redis fails. */
  async send(request) {
    request = readRequest("RedisStore", request);
    const ttl = request.ttl_ms === undefined ? [] : [String(Math.ceil(request.ttl_ms))];
    const token = request.token === undefined ? [] : [String(request.token)];
    let reply;
    try {
      reply = await SCRIPTS[request.type].run(this.#client, leaseKeys(this.#prefix, request.key), [
        request.holder,
        request.session,
        ...token,
        ...ttl,
      ]);
    } catch (err) {
      throw storeError("RedisStore", request, err);
    }
    return readReply(request, reply);
  }

  // A method applied to an object this class did not make rejects with ERR_THIS_TYPE.
  static {
    guardThis(RedisStore, (o) => #client in o);
  }
}

function readReply(request, reply) {
  const unreadable = () => storeError("RedisStore", request, undefined, `unreadable script reply ${describe(reply)}`);
  if (!Array.isArray(reply)) throw unreadable();
  const kind = text(reply[0]);
  if (kind === "Granted" || kind === "Renewed") {
    const token = text(reply[1]);
    const ttl = Number(text(reply[2]) ?? reply[2]);
    if (token === undefined || !/^\d+$/.test(token) || !Number.isFinite(ttl)) throw unreadable();
    return { type: kind, token: BigInt(token), ttl_ms: ttl };
  }
  if (kind === "Held") {
    const held = { type: "Held" };
    const holder = text(reply[2]);
    if (holder !== undefined) held.holder = holder;
    // PTTL 0: under a millisecond left, which says nothing a contender can use.
    const remaining = Number(reply[1]);
    if (Number.isFinite(remaining) && remaining > 0) held.remaining_ms = remaining;
    return held;
  }
  if (kind === "Released") return { type: "Released" };
  if (kind === "Rejected" && REASONS.has(text(reply[1]))) return { type: "Rejected", reason: text(reply[1]) };
  throw unreadable();
}

/**
 * A resource on Redis guarded by fencing tokens (design rule 1): one Redis hash per `key`
 * holding the highest token seen and the value. One Lua check-and-set per call.
 */
export class RedisFencedResource {
  #client;
  #key;

  /**
   * @param {{ client: object, key: string, prefix?: string }} options `key` names the resource;
   *   its Redis key is `<prefix>{<key>}:fenced` (prefix default "tenure:").
   */
  constructor(options) {
    options = readOptions("RedisFencedResource", options, ["sendCommand"], CLIENT, ["client", "key", "prefix"]);
    this.#client = readingInput(() => promiseClient("RedisFencedResource", options.client));
    const key = options.key;
    if (typeof key !== "string" || key === "") {
      throw usageError(TypeError, "ERR_STORE_OPTIONS", `new RedisFencedResource(options): options.key must be a non-empty string, got ${describe(key)}`);
    }
    checkWellFormed("RedisFencedResource", "key", key);
    const prefix = readStringOption("RedisFencedResource", options, "prefix", "tenure:");
    this.#key = `${prefix}{${key}}:fenced`;
  }

  /** Nothing to create on Redis (the hash appears with the first accepted write). */
  async migrate() {
    try {
      await this.#client.sendCommand(["SCRIPT", "LOAD", SCRIPTS.fence.source]);
    } catch (err) {
      throw storeError("RedisFencedResource", { type: "migrate" }, err);
    }
  }

  /** Writes `value` (a string) if `token` >= the highest token seen. */
  async write(token, value) {
    readToken("RedisFencedResource.write", token);
    if (typeof value !== "string") {
      throw usageError(TypeError, "ERR_VALUE_TYPE", `RedisFencedResource.write: the value must be a string, got ${describe(value)}`);
    }
    const why = notWellFormed(value);
    if (why) throw usageError(TypeError, "ERR_VALUE_TYPE", `RedisFencedResource.write: the value ${describe(value)} ${why}`);
    return this.#fence(token, "write", value);
  }

  /** Raises the highest token to `token` without writing: a new leader installs its generation. */
  async establish(token) {
    readToken("RedisFencedResource.establish", token);
    return this.#fence(token, "establish", "");
  }

  /** Whether `token` would be accepted now; changes nothing. */
  async check(token) {
    readToken("RedisFencedResource.check", token);
    return this.#fence(token, "check", "");
  }

  /** `{ highestToken, value }`: the highest token seen (0n before any) and the last value written. */
  async read() {
    let reply;
    try {
      reply = await this.#client.sendCommand(["HMGET", this.#key, "token", "value"]);
    } catch (err) {
      throw storeError("RedisFencedResource", { type: "read" }, err);
    }
    return { highestToken: BigInt(text(reply?.[0]) ?? "0"), value: text(reply?.[1]) };
  }

  async #fence(token, mode, value) {
    let reply;
    try {
      reply = await SCRIPTS.fence.run(this.#client, [this.#key], [String(token), mode, value]);
    } catch (err) {
      throw storeError("RedisFencedResource", { type: mode }, err);
    }
    const highest = text(reply?.[1]);
    if (!Array.isArray(reply) || highest === undefined || !/^\d+$/.test(highest)) {
      throw storeError("RedisFencedResource", { type: mode }, undefined, `unreadable script reply ${describe(reply)}`);
    }
    return fenceResult(Number(reply[0]) === 1, token, BigInt(highest));
  }

  // A method applied to an object this class did not make rejects with ERR_THIS_TYPE.
  static {
    guardThis(RedisFencedResource, (o) => #client in o);
  }
}
