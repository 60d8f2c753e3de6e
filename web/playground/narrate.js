// Words for what happened: one line per trace event for the event log, and the live
// narration (the notable events only: elections, step-downs with their reasons, grants,
// rejections, faults, split-brain windows) used once a story has been changed, and in free
// play. Everything is read from the event itself; nothing is scripted.
import { procKey } from "./procs.js";

/** `1.25 s` or `340 ms` (true time). */
export function at(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/** `4 s`, `1.5 s`, `300 ms`: a duration, as short as exact. */
export function span(ms) {
  if (ms >= 1000) return `${Number((ms / 1000).toFixed(2))} s`;
  return `${Math.round(ms)} ms`;
}

const STEP_DOWN = {
  "lease-expired": "its lease had expired",
  "renewal-rejected": "the store refused its renewal",
  fenced: "the resource refused its token: it was fenced",
  released: "it released the lease",
  "store-unreachable": "its local deadline passed without an answer from the store",
  "higher-term": "it saw a higher term",
  "check-quorum-failed": "it has not heard from a majority (CheckQuorum)",
  "higher-coordinator": "it heard from a higher id",
  outage: "the store is down",
};

/** Why a node stepped down, in words. */
export function stepDownWords(reason) {
  return STEP_DOWN[reason] ?? "for another reason";
}

const set = (xs) => `{${xs.map(procKey).join(", ")}}`;

/** A fault as a sentence in the present tense: "n2 crashes", "the network splits {n1}|{n2, n3}". */
export function faultSentence(f) {
  const p = (x) => procKey(x);
  switch (f.type) {
    case "crash": return `${p(f.node)} crashes`;
    case "restart": return `${p(f.node)} restarts`;
    case "pause": return `${p(f.target)} pauses for ${span(f.duration_ms)}`;
    case "pause-after-check": return `${p(f.node)} will pause for ${span(f.duration_ms)} right after its next lease check`;
    case "partition": return `the network splits ${f.groups.map(set).join(" | ")}`;
    case "partition-one-way": return `messages from ${set(f.from)} to ${set(f.to)} are cut`;
    case "isolate": return `${set(f.nodes)} is cut off from everyone else`;
    case "heal": return "every link heals";
    case "clock-offset": return `${p(f.target)}'s clock steps ${f.offset_ms >= 0 ? "forward" : "back"} ${span(Math.abs(f.offset_ms))}`;
    case "clock-drift": return `${p(f.target)}'s clock runs ${Math.abs(f.ppm / 10000)}% ${f.ppm < 0 ? "slow" : "fast"}`;
    case "clock-jump": return `${p(f.target)}'s clock jumps ${span(f.by_ms)} forward`;
    case "store-outage": return `the store goes down for ${span(f.duration_ms)}`;
    case "link-loss": return `links lose ${Math.round(f.probability * 100)}% of messages`;
    case "link-duplicate": return `links duplicate ${Math.round(f.probability * 100)}% of messages`;
    case "link-latency": return f.min_ms === f.max_ms ? `messages from ${set(f.from)} to ${set(f.to)} now take ${span(f.min_ms)}` : `latency from ${set(f.from)} to ${set(f.to)} is now ${f.min_ms}-${f.max_ms} ms`;
    case "drop-message": return `message ${f.id} is dropped`;
    case "propose": return `a client asks ${p(f.node)} to append command ${f.command}`;
    default: return f.type;
  }
}

/** One line for the event log: every kind of event. */
export function eventText(ev) {
  const p = procKey;
  switch (ev.event) {
    case "send": return `${p(ev.from)} → ${p(ev.to)} ${ev.msg}${ev.value != null ? ` (${ev.value})` : ""} sent`;
    case "deliver": return `${p(ev.from)} → ${p(ev.to)} ${ev.msg} delivered`;
    case "drop": return `${p(ev.from)} → ${p(ev.to)} ${ev.msg} dropped (${ev.reason === "injected" ? "by you" : ev.reason})`;
    case "timeout": return `${p(ev.proc)}: timer fires`;
    case "node": return nodeText(ev);
    case "write": return writeText(ev);
    case "fault": return `fault: ${faultSentence(ev.fault)}`;
    case "violation": return `${ev.promised ? "VIOLATION" : "not promised"}: ${ev.detail}`;
    case "split-brain-started": return `split brain: ${ev.leaders.map(p).join(" and ")} act as leader`;
    case "split-brain-ended": return `split brain ends after ${span(ev.duration_ms)}`;
    default: return ev.event;
  }
}

function nodeText(ev) {
  const n = procKey(ev.proc);
  const v = ev.value == null ? "" : String(ev.value);
  switch (ev.what) {
    case "became-leader": return `${n} leads (${v})`;
    case "stepped-down": return `${n} steps down: ${stepDownWords(ev.reason)}`;
    case "became-candidate": return `${n} campaigns in term ${v}`;
    case "became-pre-candidate": return `${n} asks for pre-votes (term ${v})`;
    case "paused": return `${n} pauses for ${span(ev.duration_ms)}`;
    case "resumed": return `${n} resumes`;
    case "crashed": return `${n} crashes`;
    case "restarted": return `${n} restarts`;
    case "proposed": return `${n} appends a command at index ${v}`;
    case "proposal-refused": return `${n} refuses a command (${ev.reason === "crashed" ? "crashed" : "not the leader"})`;
    case "outage-started": return "the store goes down";
    case "outage-ended": return "the store is back";
    case "request-swallowed": return "the store swallows a request (outage)";
    case "coordinator-changed": return `${n} follows coordinator n${v}`;
    case "election-started": return `${n} starts an election`;
    case "holder-clash": return `${n} is kept out: another session holds its id`;
    default: return `${n}: ${ev.what}${v ? ` ${v}` : ""}`;
  }
}

function writeText(w) {
  const n = procKey(w.from);
  if (!w.accepted) return `resource refuses ${n}'s write: presented ${w.presented}, required ${w.required}`;
  if (w.stale) return `resource accepts ${n}'s STALE write, token ${w.token} (had seen ${w.required})`;
  return `resource accepts ${n}'s write, token ${w.token}`;
}

/**
 * The live narration line for `ev`, or null when it is not notable. `world` is
 * `{ algorithm, userFault(ev) }`: whether a fault event is one the user made.
 */
export function liveLine(ev, world) {
  const t = at(ev.time_ms);
  if (ev.event === "fault") {
    const s = faultSentence(ev.fault);
    return world.userFault(ev) ? `Your fault at ${t}: ${s}.` : `At ${t} ${s}.`;
  }
  if (ev.event === "write") {
    const n = procKey(ev.from);
    if (!ev.accepted) return `At ${t} the resource refuses ${n}'s write: presented ${ev.presented}, required ${ev.required}.`;
    if (ev.stale) return `At ${t} the resource accepts ${n}'s stale write with token ${ev.token}, after token ${ev.required}: a deposed leader overwrote newer data.`;
    return null;
  }
  if (ev.event === "drop" && ev.reason === "injected") return `At ${t} you dropped ${procKey(ev.from)}'s ${ev.msg} to ${procKey(ev.to)}.`;
  if (ev.event !== "node") return null;
  const n = procKey(ev.proc);
  const lease = world.algorithm.startsWith("lease");
  switch (ev.what) {
    case "became-leader":
      if (lease) return `At ${t} the store grants ${n} the lease with token ${ev.value}.`;
      if (world.algorithm === "bully") return `At ${t} ${n} declares itself coordinator.`;
      return `At ${t} ${n} wins the election and leads term ${ev.value}.`;
    case "stepped-down": return `At ${t} ${n} steps down: ${stepDownWords(ev.reason)}.`;
    case "became-candidate": return `At ${t} ${n} times out and campaigns for term ${ev.value}.`;
    case "proposed": return `At ${t} ${n} appends the client's command at index ${ev.value}; it commits once a majority has it.`;
    case "proposal-refused": return `At ${t} ${n} refuses the client's command: ${ev.reason === "crashed" ? "it is down" : "it is not the leader"}.`;
    case "outage-started": return `At ${t} the store goes down: no grant or renewal until it is back.`;
    case "outage-ended": return `At ${t} the store is back.`;
    default: return null;
  }
}
