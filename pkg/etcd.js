// tenure/etcd: a lease store on etcd v3, over the user's own `Etcd3` client (`etcd3`).
// A lease is an etcd lease plus a key attached to it, created by a transaction only when the
// key is absent. The fencing token is the key's create revision: etcd's cluster-wide revision
// at the moment the key was created, so it strictly increases on every new grant, is never
// reused (revisions survive restarts and compaction) and does not move on renewal, but it
// does not grow by exactly one (other writes to the cluster move the revision too).
// Expiry is etcd's lease clock, in whole seconds: ttl_ms is rounded up to whole seconds (and
// up to the cluster's minimum lease ttl) and the ttl etcd granted is reported back.
// A client from `etcd3` 1.x's `namespace(prefix)` (a Namespace, as `Etcd3` itself is one, with
// an empty prefix) carries its prefix as the Buffer `client.prefix`, but its raw `kv` client,
// the one this store calls, does not apply it: the store puts it before every key itself.
import { guardThis, readingInput } from "./guard.js";
import { describe, readMsOption, readOptions, readRequest, readStringOption, storeError, usageError } from "./stores/common.js";

const CLIENT = "an `Etcd3` client from `etcd3` (new Etcd3({ hosts }))";
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The lease store on etcd. Tokens: the key's create revision (strictly increasing, not +1).
 * Granted and renewed ttls: whole seconds, as etcd granted them. Leases of refused acquires
 * are revoked.
 */
export class EtcdStore {
  #kv;
  #leases;
  #namespace;
  #prefix;
  #timeoutMs;

  /**
   * @param {{ client: object, prefix?: string, timeoutMs?: number }} options `client`: your
   *   Etcd3 client; `prefix` (default "tenure/") starts every key; `timeoutMs` (default 5000)
   *   bounds each etcd call (a gRPC deadline), so a request to a cluster without a quorum fails
   *   instead of hanging. A client from `etcd.namespace("app1/")` keeps its namespace: every
   *   key is `app1/` + `prefix` + the lease key.
   */
  constructor(options) {
    options = readOptions("EtcdStore", options, ["kv", "leaseClient"], CLIENT, ["client", "prefix", "timeoutMs"]);
    const client = options.client;
    this.#kv = readingInput(() => client.kv);
    this.#leases = readingInput(() => client.leaseClient);
    this.#namespace = readNamespace(readingInput(() => client.prefix));
    this.#prefix = readStringOption("EtcdStore", options, "prefix", "tenure/");
    this.#timeoutMs = readMsOption("EtcdStore", options, "timeoutMs", 5_000);
  }

  /** Nothing to create on etcd. */
  async migrate() {}

  /** One request: a few etcd calls, the deciding one a single transaction. Rejects (ERR_STORE) on failure. */
  async send(request) {
    request = readRequest("EtcdStore", request);
    const key = Buffer.concat([this.#namespace, Buffer.from(this.#prefix + request.key)]);
    const value = Buffer.from(JSON.stringify({ holder: request.holder, session: request.session }));
    try {
      if (request.type === "Acquire") return await this.#acquire(request, key, value);
      if (request.type === "Renew") return await this.#renew(request, key, value);
      return await this.#release(request, key, value);
    } catch (err) {
      throw err?.code === "ERR_STORE" ? err : storeError("EtcdStore", request, err);
    }
  }

  #call() {
    return { deadline: Date.now() + this.#timeoutMs };
  }

  async #acquire(request, key, value) {
    const seconds = Math.max(1, Math.ceil(request.ttl_ms / 1000));
    const grant = await this.#leases.leaseGrant({ TTL: seconds }, this.#call());
    const lease = grant.ID;
    const ttlMs = Number(grant.TTL) * 1000;
    if (!(ttlMs > 0)) throw storeError("EtcdStore", request, undefined, `etcd granted an unreadable lease ${describe(grant.TTL)}`);
    let used = false;
    try {
      // Bounded: each turn answers unless the key changed between two of our calls.
      for (let turn = 0; turn < 3; turn++) {
        const created = await this.#kv.txn(
          {
            compare: [{ key, target: "Create", result: "Equal", create_revision: 0 }],
            success: [{ request_put: { key, value, lease } }, { request_range: { key } }],
            failure: [{ request_range: { key } }],
          },
          this.#call(),
        );
        const current = rangeKv(created.responses[created.succeeded ? 1 : 0]);
        if (created.succeeded) {
          used = true;
          return { type: "Granted", token: revision(request, current), ttl_ms: ttlMs };
        }
        if (!current) continue; // deleted between our calls: try to create it again
        const owner = readOwner(current.value);
        if (owner?.holder === request.holder && owner.session === request.session) {
          // Our own live lease (our grant reply was lost): the same token, moved onto the
          // fresh lease so it runs from now for the ttl asked; the old lease is revoked.
          const moved = await this.#kv.txn(
            {
              compare: [
                { key, target: "Create", result: "Equal", create_revision: current.create_revision },
                { key, target: "Value", result: "Equal", value: current.value },
              ],
              success: [{ request_put: { key, value, lease } }],
              failure: [],
            },
            this.#call(),
          );
          if (!moved.succeeded) continue;
          used = true;
          if (String(current.lease) !== String(lease)) await this.#revoke(current.lease);
          return { type: "Granted", token: revision(request, current), ttl_ms: ttlMs };
        }
        const held = { type: "Held" };
        if (owner) held.holder = owner.holder;
        const left = await this.#leases.leaseTimeToLive({ ID: current.lease }, this.#call()).catch(() => undefined);
        // etcd answers whole seconds, truncated: the lease has [TTL, TTL + 1) s left. Under
        // a second (TTL 0) the answer says nothing more, so it is left out.
        const remaining = Number(left?.TTL);
        if (Number.isInteger(remaining) && remaining >= 1) held.remaining_ms = remaining * 1000;
        return held;
      }
      return { type: "Rejected", reason: "Unknown" };
    } finally {
      if (!used) await this.#revoke(lease);
    }
  }

  async #renew(request, key) {
    const got = await this.#kv.range({ key }, this.#call());
    const current = got.kvs?.[0];
    // No key: the lease ended on etcd's clock (expired, or released, which deletes the key).
    if (!current) return { type: "Rejected", reason: "Expired" };
    const owner = readOwner(current.value);
    if (owner?.holder !== request.holder || owner.session !== request.session) return { type: "Rejected", reason: "NotHolder" };
    if (revision(request, current) !== request.token) return { type: "Rejected", reason: "TokenMismatch" };
    const ttl = await this.#keepAlive(current.lease);
    // TTL <= 0: etcd says the lease is gone (it expired between the two calls).
    if (!(ttl > 0)) return { type: "Rejected", reason: "Expired" };
    return { type: "Renewed", token: request.token, ttl_ms: ttl * 1000 };
  }

  async #release(request, key, value) {
    if (request.token <= INT64_MAX) {
      const deleted = await this.#kv.txn(
        {
          compare: [
            { key, target: "Create", result: "Equal", create_revision: String(request.token) },
            { key, target: "Value", result: "Equal", value },
          ],
          success: [{ request_delete_range: { key, prev_kv: true } }],
          failure: [{ request_range: { key } }],
        },
        this.#call(),
      );
      if (deleted.succeeded) {
        const previous = deleted.responses[0]?.response_delete_range?.prev_kvs?.[0];
        if (previous && String(previous.lease) !== "0") await this.#revoke(previous.lease);
        return { type: "Released" };
      }
      return releaseRefusal(request, rangeKv(deleted.responses[0]));
    }
    const got = await this.#kv.range({ key }, this.#call());
    return releaseRefusal(request, got.kvs?.[0]);
  }

  /**
   * One keepalive on an existing lease: the TTL etcd answers (seconds; <= 0 if it is gone).
   * The stream keeps an error listener after the answer: a gRPC stream may emit an error
   * after it was ended (a cancellation), and an `error` event with no listener would throw
   * in the host process (docs/design.md rule 10: the driver never crashes the host).
   */
  async #keepAlive(lease) {
    const stream = await this.#leases.leaseKeepAlive(this.#call());
    try {
      return await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no keepalive answer within ${this.#timeoutMs} ms`)), this.#timeoutMs);
        stream.once("data", (res) => {
          clearTimeout(timer);
          resolve(Number(res.TTL));
        });
        // Only the first error matters; later ones (after the answer or the end) are moot.
        stream.on("error", (err) => {
          clearTimeout(timer);
          reject(err);
        });
        stream.write({ ID: lease });
      });
    } finally {
      stream.end();
    }
  }

  /**
   * Revokes a lease we no longer need. A failure is not a breach: the lease lapses on its own
   * within its ttl, and the answer already given stays true; so it is not thrown.
   */
  async #revoke(lease) {
    await this.#leases.leaseRevoke({ ID: lease }, this.#call()).catch(() => {});
  }

  // A method applied to an object this class did not make rejects with ERR_THIS_TYPE.
  static {
    guardThis(EtcdStore, (o) => #kv in o);
  }
}

/**
 * The bytes of the client's etcd3 namespace (`client.prefix`): empty for an `Etcd3` client or
 * a client without one. Copied: the store's keys do not move if the Buffer is changed later.
 */
function readNamespace(prefix) {
  if (prefix === undefined) return Buffer.alloc(0);
  if (!(prefix instanceof Uint8Array)) {
    throw usageError(
      TypeError,
      "ERR_STORE_OPTIONS",
      `new EtcdStore(options): options.client.prefix (an etcd3 namespace's prefix) must be a Buffer, got ${describe(prefix)}; ` +
        "pass an Etcd3 client or one from its namespace(), or put the namespace in the store's own `prefix` option",
    );
  }
  return Buffer.from(prefix);
}

function releaseRefusal(request, current) {
  // No key: no live lease to end; releasing again is harmless.
  if (!current) return { type: "Released" };
  const owner = readOwner(current.value);
  if (owner?.holder !== request.holder || owner.session !== request.session) return { type: "Rejected", reason: "NotHolder" };
  return { type: "Rejected", reason: "TokenMismatch" };
}

function rangeKv(response) {
  return response?.response_range?.kvs?.[0];
}

function revision(request, kv) {
  const text = String(kv?.create_revision);
  if (!/^\d+$/.test(text) || text === "0") {
    throw storeError("EtcdStore", request, undefined, `etcd answered an unreadable create revision ${describe(kv?.create_revision)}`);
  }
  return BigInt(text);
}

/** The { holder, session } a key holds, or undefined for a value this adapter did not write. */
function readOwner(value) {
  try {
    const owner = JSON.parse(Buffer.from(value ?? []).toString("utf8"));
    return typeof owner?.holder === "string" && typeof owner.session === "string" ? owner : undefined;
  } catch {
    return undefined;
  }
}
