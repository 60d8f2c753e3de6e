// A counterexample as a story: the shrunk scenario "Can this break?" found (or a permalink to
// one), told as the stories are. Its beats are its faults, one each, then the violation, each
// a condition on the run's trace events and worded from the matching event (node names,
// tokens, terms and times of the run shown). Who leads is followed from the events
// themselves (elections, step-downs, crashes), so the split-brain beat names the two leaders.
// The story's id is `search:<property>`, so a permalink to it opens it as a story again.
import { procKey } from "./procs.js";
import { at, faultSentence, span } from "./narrate.js";

const PREFIX = "search:";

/** The story id of a counterexample of `property`. */
export function storyId(property) {
  return `${PREFIX}${property}`;
}

/** The property of a counterexample story's id, or null when `id` is not one. */
export function propertyOf(id) {
  return typeof id === "string" && id.startsWith(PREFIX) && id.length > PREFIX.length ? id.slice(PREFIX.length) : null;
}

const ALGO_WORDS = {
  bully: "Bully",
  raft: "Raft",
  "lease-fencing": "the lease with fencing",
  "lease-unfenced": "the lease without fencing",
};

/**
 * The length of a `no-leader-for=DURATION` property, ms, read as the CLI and `Search` read it
 * (`tenure_sim::duration::parse_duration_ms`): a number and a unit, `ms`, `s`, `m` or `h`
 * (`250ms`, `1.5s`, `2m`, `1h`), that comes to a whole number of milliseconds from 1 to 10^9
 * (the longest run). A bare number (`no-leader-for=2000`) has no unit and is refused, as the
 * CLI refuses it: `null` for anything that is not such a property.
 */
export function leaderlessMs(property) {
  const m = /^no-leader-for=\s*(\d*)(?:\.(\d{0,18}))?\s*(ms|s|m|h)\s*$/.exec(String(property).trim());
  if (!m || (m[1] === "" && !m[2])) return null;
  const [, whole, frac = "", unit] = m;
  const scale = { ms: 1n, s: 1000n, m: 60_000n, h: 3_600_000n }[unit];
  // Exact decimal arithmetic: 1.0005s is not a whole number of ms.
  const den = 10n ** BigInt(frac.length);
  const numer = (BigInt(whole || "0") * den + BigInt(frac || "0")) * scale;
  if (numer % den !== 0n) return null;
  const ms = numer / den;
  return ms > 0n && ms <= 1_000_000_000n ? Number(ms) : null;
}

/** The property in words, for titles and captions. */
export function propertyWords(property) {
  if (property === "split-brain") return "split brain";
  if (property === "stale-write") return "a stale write accepted";
  if (property === "any-promised") return "a promised invariant broken";
  const leaderless = leaderlessMs(property);
  if (leaderless != null) return `no leader for more than ${span(leaderless)}`;
  return `${property.replace(/-/g, " ")} broken`;
}

/** What each kind of fault means for the run, after the sentence that names it. */
function gloss(fault, algorithm) {
  const lease = algorithm.startsWith("lease");
  switch (fault.type) {
    case "partition":
    case "isolate":
    case "partition-one-way":
      return "Messages across the cut are dropped, and nobody is told: to each side, the other has gone quiet.";
    case "pause":
    case "pause-after-check":
      return "While paused it does nothing, but time goes on for everyone else.";
    case "clock-drift":
      return lease
        ? "Its lease deadline is measured on that clock: beyond the safety margin, it ends later in true time than the store's expiry."
        : "Its timers now fire early or late in true time.";
    case "clock-jump":
    case "clock-offset":
      return lease ? "Lease expiry is measured on clocks: a jumped clock expires a lease early or late." : "Its timers fire at the wrong moment.";
    case "crash":
      return "It loses everything not persisted.";
    case "store-outage":
      return "No grant or renewal until it is back.";
    default:
      return "";
  }
}

/** Whether trace event `ev` is the fault `f` (a scenario `faults` entry) being applied. */
function isFault(ev, f) {
  return ev.event === "fault" && ev.fault?.type === f.fault.type && Math.abs(ev.time_ms - Number(f.at_ms)) < 1e-3;
}

/** Follows who acts as leader through node events; `b.leaders` is `{ n1: value, ... }`. */
function track(ev, b) {
  b.leaders ??= {};
  if (ev.event !== "node") return;
  const n = procKey(ev.proc);
  if (ev.what === "became-leader") b.leaders[n] = ev.value == null ? "" : String(ev.value);
  else if (ev.what === "stepped-down" || ev.what === "crashed" || ev.what === "restarted") delete b.leaders[n];
  if (Object.keys(b.leaders).length === 0) b.leaderlessSince ??= ev.time_ms;
  else b.leaderlessSince = undefined;
}

/** Each beat's condition, after following the event for every later beat's sake. */
function tracked(when) {
  return (ev, b) => {
    track(ev, b);
    return when(ev, b);
  };
}

function leadersList(b) {
  return Object.keys(b.leaders ?? {}).sort((x, y) => x.localeCompare(y, "en", { numeric: true }));
}

/** The last beat: the violation of `property`, as the trace shows it. */
function violationBeat(property, algorithm) {
  if (property === "split-brain") {
    return {
      when: (ev, b) => leadersList(b).length >= 2,
      say: (ev, b) => {
        const [a, c] = leadersList(b);
        const value = (k) => b.leaders[k];
        const lease = algorithm.startsWith("lease");
        const what = algorithm === "raft" ? ` (terms ${value(a)} and ${value(c)})` : lease ? ` (tokens ${value(a)} and ${value(c)})` : "";
        const why = {
          bully: "Bully takes silence for a crash: each side of the cut elects its own coordinator, and nothing in the algorithm tells a cut link from a crashed node.",
          raft: "Without CheckQuorum a leader cut off from the majority never learns it was deposed: it goes on acting as leader while the majority elects another. One leader per term still holds; clients talking to the old leader are misled.",
          "lease-fencing": "The lease holds only while clocks drift less than the safety margin covers: one holder's clock ran beyond it, so it still trusted its lease when the store granted the next one.",
          "lease-unfenced": "The lease holds only while clocks drift less than the safety margin covers: one holder's clock ran beyond it, so it still trusted its lease when the store granted the next one.",
        }[algorithm] ?? "";
        return `At ${at(ev.time_ms)} ${a} and ${c} both act as leader${what}: split brain. ${why}`;
      },
    };
  }
  if (property === "stale-write") {
    return {
      when: (ev) => ev.event === "write" && ev.accepted && ev.stale,
      say: (ev) => `At ${at(ev.time_ms)} the resource accepts ${procKey(ev.from)}'s write with token ${ev.token} after it had seen token ${ev.required}: a stale write from a deposed leader. Nothing fenced it.`,
    };
  }
  const ms = leaderlessMs(property);
  if (ms != null) {
    return {
      when: (ev, b) => b.leaderlessSince != null && ev.time_ms - b.leaderlessSince > ms,
      say: (ev, b) => `No node has acted as leader since ${at(b.leaderlessSince)}: more than ${span(ms)} without a leader by ${at(ev.time_ms)}.`,
    };
  }
  // An invariant: the checker's violation event (for any-promised, the first promised one).
  return {
    when: (ev) => ev.event === "violation" && (property === "any-promised" ? ev.promised : ev.kind === property),
    say: (ev) => `At ${at(ev.time_ms)} the checker records ${ev.kind}${ev.promised ? ", which the algorithm promises" : ""}: ${ev.detail}.`,
  };
}

const CITES = {
  bully: "Hector Garcia-Molina, “Elections in a Distributed Computing System” (IEEE Transactions on Computers, 1982): Bully assumes a network that never partitions.",
  raft: "Diego Ongaro, “Consensus: Bridging Theory and Practice” (2014), §6.2: a leader steps down when it has not heard from a majority (CheckQuorum).",
  "lease-fencing": "Cary Gray and David Cheriton, “Leases” (SOSP 1989): a lease is safe only under bounded clock drift.",
  "lease-unfenced": "Martin Kleppmann, “How to do distributed locking” (2016): without fencing, a lease cannot protect a resource.",
};
const SHRINK_CITE = "Andreas Zeller and Ralf Hildebrandt, “Simplifying and Isolating Failure-Inducing Input” (IEEE TSE, 2002): delta debugging, the shrinker's first pass.";

/**
 * The story of counterexample `scenario` for `property`. `info` (optional, from the search)
 * is `{ runs, original: {faults, duration_ms} }`, for the intro.
 */
export function counterexampleStory(scenario, property, info = {}) {
  const algorithm = String(scenario.algorithm);
  const count = (scenario.faults ?? []).length === 1 ? "one fault" : `${(scenario.faults ?? []).length} faults`;
  const found = info.runs ? `Found in ${info.runs} seeded fault schedule${info.runs === 1 ? "" : "s"}` : "Found by searching seeded fault schedules";
  const from = info.original ? `, then shrunk from ${info.original.faults} faults over ${span(info.original.duration_ms)}` : ", then shrunk";
  const duration = Number(scenario.duration_ms);
  const faults = [...(scenario.faults ?? [])].sort((a, b) => Number(a.at_ms) - Number(b.at_ms));
  const beats = faults.map((f) => ({
    when: tracked((ev) => isFault(ev, f)),
    // A fault at time 0 is met as the story loads, so its caption replaces the intro: it
    // carries the intro too.
    say: (ev) => (ev.time_ms === 0
      ? `${intro} From the start, ${faultSentence(ev.fault)}. ${gloss(ev.fault, algorithm)}`
      : `At ${at(ev.time_ms)} ${faultSentence(ev.fault)}. ${gloss(ev.fault, algorithm)}`).trim(),
  }));
  const last = violationBeat(property, algorithm);
  beats.push({ ...last, when: tracked(last.when) });
  const intro = `${found}${from} to ${count} over ${span(duration)} on ${ALGO_WORDS[algorithm] ?? algorithm} with ${scenario.nodes} nodes. Each beat is one of its faults, then the violation.`;
  return {
    id: storyId(property),
    title: `Counterexample: ${propertyWords(property)}`,
    blurb: `${ALGO_WORDS[algorithm] ?? algorithm}, ${scenario.nodes} nodes, ${count}`,
    // A run shrunk to a few tens of ms needs a crawl to be seen; holds stop at every beat.
    speed: duration < 1000 ? 0.02 : 0.25,
    scenario,
    intro,
    beats,
    cites: [CITES[algorithm], SHRINK_CITE].filter(Boolean),
  };
}
