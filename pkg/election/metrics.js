// Metrics of a LeaderElection, named as the field names them (leader_election_*), labelled
// by key and node: a plain snapshot always, and Prometheus exposition through prom-client
// (an optional peer dependency) when a registry is passed. One set of prom-client metrics
// per registry serves every election registered with it.
import { misuse } from "./errors.js";
import { quoted } from "./options.js";
import { readingInput, refuseRevokedProxy } from "../guard.js";

let loadPromClient = () => undefined;

/** The entry point says how prom-client is reached (Node: require; browsers: not at all). */
export function setPromClientLoader(load) {
  loadPromClient = load;
}

const HELP = {
  leader_election_is_leader: "1 while this node leads the key, else 0",
  leader_election_elections_total: "Times this node was elected leader of the key",
  leader_election_fencing_token: "The fencing token of this node's current or last leadership of the key",
  leader_election_leadership_lost_total: "Times this node's leadership of the key ended, by reason",
  leader_election_renewal_failures_total: "Renewals of the key's lease that failed (refused, unanswered, timed out or unreadable)",
  leader_election_leader_seconds_total: "Seconds this node has led the key",
};

export class ElectionMetrics {
  #labels;
  #now;
  #deadline;
  #until; // the last local deadline seen while leading: time as leader stops there
  #elections = 0;
  #token = 0n;
  #lost = {};
  #renewalFailures = 0;
  #leaderMs = 0;
  #since;
  #registry;

  /**
   * `source`: the election's `now()` (its clock, ms) and `deadline()` (its local lease deadline
   * while `Leader`, else undefined). Every snapshot (and so every scrape) reads them, so the
   * leadership gauge says what `isLeader` says at that instant, not what the last transition
   * said: a loop blocked past the deadline has not yet run the step-down, but leads no more.
   */
  constructor(labels, registry, source) {
    this.#labels = labels;
    this.#now = source.now;
    this.#deadline = source.deadline;
    if (registry !== undefined) {
      // The registry is the caller's object: a revoked Proxy, or a getter or trap that throws
      // while it is read, is refused with a code (ERR_REVOKED_PROXY, ERR_INPUT_THREW).
      refuseRevokedProxy(registry, "options.registry");
      const { members } = readingInput(() => promSet(registry));
      // Two elections of one key and node would write one series (the same labels): the
      // second's values would hide the first's. Refused, as other collisions on a registry are.
      for (const m of members) {
        if (m.#labels.key === labels.key && m.#labels.node === labels.node) throw seriesExists(labels);
      }
      this.#registry = registry;
      members.add(this);
    }
  }

  /**
   * Throws what the constructor would for the first of `labelsList` whose series an open
   * election already writes on `registry`: ShardedElection asks before it makes any key's
   * election, since one refused half-way left the keys made before it on the registry until
   * their close() settled. Reads nothing of a registry no election has used.
   */
  static refuseTaken(registry, labelsList) {
    const set = sets.get(registry);
    if (set === undefined) return;
    const taken = new Set([...set.members].map((m) => JSON.stringify([m.#labels.key, m.#labels.node])));
    const first = labelsList.find((l) => taken.has(JSON.stringify([l.key, l.node])));
    if (first !== undefined) throw seriesExists(first);
  }

  elected(token, now) {
    this.#elections++;
    this.#token = token;
    this.#since = now;
    this.#until = undefined;
  }

  lost(reason, now) {
    this.#lost[reason] = (this.#lost[reason] ?? 0) + 1;
    if (this.#since !== undefined) this.#leaderMs += this.#ledUntil(now) - this.#since;
    this.#since = undefined;
  }

  /** The election's deadline while it leads (called after each of its inputs: renewals move it). */
  leaseUntil(deadline) {
    if (deadline !== undefined) this.#until = deadline;
  }

  /** Leadership ends at the local deadline (rule 4), even when the step-down runs later. */
  #ledUntil(now) {
    return Math.max(this.#since, this.#until === undefined ? now : Math.min(now, this.#until));
  }

  renewalFailed() {
    this.#renewalFailures++;
  }

  unregister() {
    if (this.#registry !== undefined) promSet(this.#registry).members.delete(this);
  }

  /** The values now, on the election's clock. */
  snapshot() {
    const now = this.#now();
    let leading = false;
    let leaderMs = this.#leaderMs;
    if (this.#since !== undefined) {
      // #until already holds this deadline: the election records it after each input.
      const deadline = this.#deadline();
      leading = deadline !== undefined && now < deadline;
      leaderMs += this.#ledUntil(now) - this.#since;
    }
    return {
      labels: { ...this.#labels },
      leader_election_is_leader: leading ? 1 : 0,
      leader_election_elections_total: this.#elections,
      leader_election_fencing_token: this.#token,
      leader_election_leadership_lost_total: Object.values(this.#lost).reduce((a, b) => a + b, 0),
      leader_election_leadership_lost_by_reason: { ...this.#lost },
      leader_election_renewal_failures_total: this.#renewalFailures,
      leader_election_leader_seconds_total: Math.round(leaderMs) / 1000,
    };
  }
}

const sets = new WeakMap();

/** The prom-client metrics registered on `registry` (created on first use). */
function promSet(registry) {
  let set = sets.get(registry);
  if (set !== undefined) {
    // registry.clear() or removeSingleMetric() took ours away: an election made after that
    // registers them again (and the elections still open are counted in them again). A metric
    // of one of our names that is not ours (the caller's, registered after the clear) is
    // refused before any is registered again, as on a registry we never used.
    for (const name of set.makers.keys()) {
      const there = registry.getSingleMetric(name);
      if (there !== undefined && there !== set.metrics.get(name)) throw metricExists(name);
    }
    for (const [name, make] of set.makers) if (registry.getSingleMetric(name) === undefined) set.metrics.set(name, make());
    return set;
  }
  refuseNonRegistry(registry);
  const client = loadPromClient();
  if (client === undefined) {
    throw misuse(TypeError, "ERR_PROM_CLIENT", "options.registry was given but prom-client cannot be loaded (npm install prom-client; under Node only)");
  }
  // A metric of one of our names already there (the caller's own, or one a second copy of
  // this module registered: this module's cache cannot see it) would make prom-client throw
  // its plain Error half-way through: refuse before registering any, naming the metric.
  for (const name of Object.keys(HELP)) {
    if (registry.getSingleMetric(name) !== undefined) throw metricExists(name);
  }
  const members = new Set();
  // Read at every scrape: each election's values as of now, on its own clock.
  const each = (fn) => {
    for (const m of members) fn(m.snapshot());
  };
  const labelNames = ["key", "node"];
  const registers = [registry];
  const gauge = (name, value) =>
    new client.Gauge({
      name, help: HELP[name], labelNames, registers,
      collect() {
        this.reset();
        each((s) => this.set(s.labels, value(s)));
      },
    });
  const counter = (name, value, extra = []) =>
    new client.Counter({
      name, help: HELP[name], labelNames: [...labelNames, ...extra], registers,
      collect() {
        this.reset();
        each((s) => value(s, (labels, v) => this.inc({ ...s.labels, ...labels }, v)));
      },
    });
  const registered = [];
  const makers = new Map();
  const metrics = new Map();
  const register = (name, make) => {
    try {
      metrics.set(name, make());
    } catch (err) {
      // Registered meanwhile (or a registry that cannot be asked first): leave none of ours behind.
      for (const done of registered) registry.removeSingleMetric(done);
      throw /already been registered/.test(err?.message) ? metricExists(name, err) : err;
    }
    registered.push(name);
    makers.set(name, make);
  };
  register("leader_election_is_leader", () => gauge("leader_election_is_leader", (s) => s.leader_election_is_leader));
  register("leader_election_fencing_token", () => gauge("leader_election_fencing_token", (s) => Number(s.leader_election_fencing_token)));
  register("leader_election_elections_total", () => counter("leader_election_elections_total", (s, inc) => inc({}, s.leader_election_elections_total)));
  register("leader_election_leadership_lost_total", () =>
    counter("leader_election_leadership_lost_total", (s, inc) => {
      for (const [reason, n] of Object.entries(s.leader_election_leadership_lost_by_reason)) inc({ reason }, n);
    }, ["reason"]));
  register("leader_election_renewal_failures_total", () => counter("leader_election_renewal_failures_total", (s, inc) => inc({}, s.leader_election_renewal_failures_total)));
  register("leader_election_leader_seconds_total", () => counter("leader_election_leader_seconds_total", (s, inc) => inc({}, s.leader_election_leader_seconds_total)));
  set = { members, makers, metrics };
  sets.set(registry, set);
  return set;
}

// What this module and prom-client's metrics call on a registry: registerMetric (each metric
// registers itself), getSingleMetric (the clash check, and re-registering after clear()),
// removeSingleMetric (the roll-back) and metrics (the exposition the registry exists for). An
// object with fewer is not a Registry: it would fail later, in the middle of registering.
const REGISTRY_METHODS = ["registerMetric", "getSingleMetric", "removeSingleMetric", "metrics"];

function refuseNonRegistry(registry) {
  const kind = registry === null ? "null" : Array.isArray(registry) ? "an array" : typeof registry;
  if (kind !== "object" && kind !== "function") {
    throw misuse(TypeError, "ERR_PROM_CLIENT", `options.registry must be a prom-client Registry (new Registry(), or prom-client's register), got ${kind}`);
  }
  const missing = REGISTRY_METHODS.filter((name) => typeof registry[name] !== "function");
  if (missing.length > 0) {
    const has = REGISTRY_METHODS.filter((name) => !missing.includes(name)).map((m) => `${m}()`);
    const got = kind === "an array" ? "an array" : has.length === 0 ? "an object with none of them" : `an object with only ${has.join(", ")}`;
    const methods = `${missing.map((m) => `${m}()`).join(", ")} method${missing.length > 1 ? "s" : ""}`;
    throw misuse(TypeError, "ERR_PROM_CLIENT", `options.registry must be a prom-client Registry (new Registry(), or prom-client's register): it has no ${methods} (got ${got})`);
  }
}

/** options.registry already has the series of an election of this key and node. */
function seriesExists({ key, node }) {
  return misuse(
    Error,
    "ERR_METRIC_EXISTS",
    `options.registry already has the leader_election_* series of an election of key ${quoted(key)} on node ${quoted(node)} ({key, node} labels): a second one would write the same series. ` +
      "Close the first (await its close(): a closed election leaves the registry) or give this one another nodeId (one nodeId per process: design rule 8)",
  );
}

/** options.registry already has a metric named `name` that this module did not register. */
function metricExists(name, cause) {
  const err = misuse(
    Error,
    "ERR_METRIC_EXISTS",
    `options.registry already has a metric named "${name}" that this election did not register (your own metric of that name, or one a second copy of the tenure package registered): ` +
      `give the elections a prom-client Registry of their own (new Registry(); expose both with Registry.merge([yours, theirs])), or remove the other with registry.removeSingleMetric("${name}")`,
  );
  if (cause !== undefined) err.cause = cause;
  return err;
}
