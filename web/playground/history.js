// The timeline's record: what each node believed and when, split-brain windows, writes and
// faults, gathered from the simulation's own trace events (the split-brain windows are the
// simulator's `split-brain-started` / `split-brain-ended` events, not recomputed here). One History follows one run from
// time 0; the timeline keeps the furthest one for display while a replay catches up.
import { eventText, liveLine } from "./narrate.js";
import { procKey } from "./procs.js";

/** Bounds: the event log's lines, the messages kept for the space-time diagram, and so on. */
const LOG_KEEP = 400;
const MSG_KEEP = 4000;
const LIVE_KEEP = 300;
const WRITES_KEEP = 400;

/** What the timeline draws, in simulated ms. */
export class History {
  constructor() {
    this.reset();
  }

  reset() {
    /** @type {Map<string, {from:number,to:number|null,value:string}[]>} leadership per node */
    this.lead = new Map();
    /** @type {Map<string, {from:number,to:number|null,kind:string}[]>} paused/crashed spans */
    this.down = new Map();
    /** @type {{from:number,to:number|null}[]} */
    this.splits = [];
    /** @type {{time:number,from:string,accepted:boolean,stale:boolean,presented:string|null,required:string}[]} */
    this.writes = [];
    /** @type {{time:number,label:string,fault:object}[]} */
    this.faults = [];
    this.maxTime = 0;
    /** The event log: the last events in words, `{seq, time, text, event}`. */
    this.log = [];
    /** Messages by id for the space-time diagram: `{id, from, to, kind, value, send, arrival, end, fate}`. */
    this.msgs = new Map();
    /** Live narration lines `{time, text}`. */
    this.live = [];
    /** Every write the resource judged (the last ones), numbered: `{n, time, from, token, accepted, stale, presented, required}`. */
    this.judged = [];
    this.writeCount = 0;
    /** The story's progress: the next beat, who is who, and the beats met `{index, time, text}`. */
    this.story = { next: 0, bind: {}, met: [] };
    /** Lease marks per node: `{time, deadline, expiry}` (true ms) sampled as they change. */
    this.leases = new Map();
    /** The seqs of the last batch ingested (a Step's events). */
    this.lastBatch = null;
  }

  /**
   * Records trace events (oldest first), then notes that the run has reached `nowMs`. `ctx`
   * (optional) is `{ story, config, algorithm, changedAt, userFault(ev) }`: the story whose
   * beats to match, and from when the user changed it.
   */
  ingest(events, nowMs, ctx) {
    for (const ev of events) {
      this.remember(ev, ctx);
      this.ingestEvent(ev, ev.time_ms);
    }
    if (events.length) this.lastBatch = [events[0].seq, events.at(-1).seq];
    this.maxTime = Math.max(this.maxTime, nowMs);
  }

  /** The log line, the message record, the narration and the story's beats for `ev`. */
  remember(ev, ctx) {
    this.log.push({ seq: ev.seq, time: ev.time_ms, text: eventText(ev), event: ev.event, id: ev.id == null ? undefined : String(ev.id) });
    if (this.log.length > LOG_KEEP) this.log.shift();
    this.trackMessage(ev);
    if (!ctx) return;
    const line = liveLine(ev, ctx);
    if (line) this.say(ev.time_ms, line);
    const story = ctx.story;
    if (!story || (ctx.changedAt != null && ev.time_ms >= ctx.changedAt)) return;
    const beat = story.beats[this.story.next];
    if (beat && beat.when(ev, this.story.bind)) {
      beat.bind?.(ev, this.story.bind);
      this.story.met.push({ index: this.story.next, time: ev.time_ms, text: beat.say(ev, this.story.bind, ctx.config ?? {}), hold: beat.hold !== false });
      this.story.next += 1;
    }
  }

  say(time, text) {
    this.live.push({ time, text });
    if (this.live.length > LIVE_KEEP) this.live.shift();
  }

  trackMessage(ev) {
    const id = ev.id == null ? null : String(ev.id);
    if (ev.event === "send") {
      this.msgs.set(id, { id, from: procKey(ev.from), to: procKey(ev.to), kind: ev.msg, value: ev.value == null ? null : String(ev.value), send: ev.time_ms, arrival: ev.arrival_ms, end: null, fate: null });
      if (this.msgs.size > MSG_KEEP) this.msgs.delete(this.msgs.keys().next().value);
    } else if (ev.event === "deliver" || ev.event === "drop") {
      let m = this.msgs.get(id);
      // A message dropped at its send never had a send event: record it at its drop.
      if (!m && ev.event === "drop") this.msgs.set(id, (m = { id, from: procKey(ev.from), to: procKey(ev.to), kind: ev.msg, value: null, send: ev.time_ms, arrival: ev.time_ms, end: null, fate: null }));
      if (m && m.end == null) Object.assign(m, { end: ev.time_ms, fate: ev.event === "deliver" ? "delivered" : ev.reason });
    }
  }

  /** Records the lease marks of a snapshot (lease worlds) when they changed. */
  sampleLeases(snap) {
    const holder = snap.store?.holder == null ? null : `n${snap.store.holder}`;
    for (const node of snap.nodes) {
      const key = procKey(node.id);
      if (!key.startsWith("n")) continue;
      const list = this.spans(this.leases, key);
      const last = list.at(-1);
      // A deadline already passed reads as "now" (a paused holder's clock converts it so):
      // the deadline is still the one it had.
      let deadline = node.lease_deadline_ms;
      if (deadline != null && deadline <= snap.time_ms + 1e-3) deadline = last?.deadline ?? null;
      const expiry = key === holder ? snap.store.expiry_true_ms : null;
      if (deadline == null && expiry == null && (!last || (last.deadline == null && last.expiry == null))) continue;
      if (last && last.deadline === deadline && last.expiry === expiry) continue;
      list.push({ time: snap.time_ms, deadline, expiry });
      if (list.length > 200) list.shift();
    }
  }

  ingestEvent(ev, t) {
    switch (ev.event) {
      case "node":
        this.ingestNode(procKey(ev.proc), ev.what, ev.value, t);
        break;
      case "write":
        this.writeCount += 1;
        this.judged.push({ n: this.writeCount, time: t, from: procKey(ev.from), token: String(ev.token), accepted: ev.accepted, stale: ev.stale, presented: ev.presented == null ? null : String(ev.presented), required: String(ev.required) });
        if (this.judged.length > WRITES_KEEP) this.judged.shift();
        // Only the writes the timeline marks: rejected ones and stale ones (bounded by faults).
        if (ev.accepted && !ev.stale) break;
        this.writes.push({
          time: t,
          from: procKey(ev.from),
          token: String(ev.token),
          accepted: ev.accepted,
          stale: ev.stale,
          presented: ev.presented == null ? null : String(ev.presented),
          required: String(ev.required),
        });
        break;
      case "fault":
        this.faults.push({ time: t, label: faultLabel(ev.fault), fault: ev.fault });
        break;
      case "split-brain-started":
        this.splits.push({ from: t, to: null });
        this.say(t, `Split brain from ${fmtAt(t)}: ${ev.leaders.map(procKey).join(" and ")} both act as leader.`);
        break;
      case "split-brain-ended": {
        // The simulator reports no window that closes at the instant it opens.
        const open = this.splits.at(-1)?.to === null ? this.splits.at(-1) : undefined;
        if (!open) break;
        open.to = t;
        this.say(t, `At ${fmtAt(t)} the split-brain window closes, after ${fmtAt(ev.duration_ms)}.`);
        break;
      }
      default:
    }
  }

  ingestNode(key, what, value, t) {
    const lead = this.spans(this.lead, key);
    const down = this.spans(this.down, key);
    const open = (list) => list.at(-1)?.to === null ? list.at(-1) : undefined;
    switch (what) {
      case "became-leader":
        if (open(lead)) open(lead).to = t;
        lead.push({ from: t, to: null, value: value == null ? "" : String(value) });
        break;
      case "stepped-down":
        if (open(lead)) open(lead).to = t;
        break;
      case "crashed":
        if (open(lead)) open(lead).to = t;
        down.push({ from: t, to: null, kind: "crashed" });
        break;
      case "paused":
        down.push({ from: t, to: null, kind: "paused" });
        break;
      case "resumed":
      case "restarted":
        if (open(down)) open(down).to = t;
        break;
      default:
    }
  }

  spans(map, key) {
    let list = map.get(key);
    if (!list) map.set(key, (list = []));
    return list;
  }
}

function fmtAt(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/** A short label for a fault: `crash n2`, `partition {n1}|{n2,n3}`, `pause n1 4000ms`. */
export function faultLabel(f) {
  const p = (x) => procKey(x);
  const set = (xs) => `{${xs.map(p).join(",")}}`;
  switch (f.type) {
    case "crash":
    case "restart":
      return `${f.type} ${p(f.node)}`;
    case "pause":
      return `pause ${p(f.target)} ${f.duration_ms} ms`;
    case "pause-after-check":
      return `pause ${p(f.node)} after check`;
    case "partition":
      return `partition ${f.groups.map(set).join("|")}`;
    case "partition-one-way":
      return `cut ${set(f.from)}→${set(f.to)}`;
    case "isolate":
      return `isolate ${set(f.nodes)}`;
    case "clock-offset":
      return `clock ${p(f.target)} ${f.offset_ms >= 0 ? "+" : ""}${f.offset_ms} ms`;
    case "clock-drift":
      return `drift ${p(f.target)} ${f.ppm / 10000}%`;
    case "clock-jump":
      return `clock ${p(f.target)} jumps ${f.by_ms} ms`;
    case "store-outage":
      return `store outage ${f.duration_ms} ms`;
    case "link-loss":
      return `loss ${Math.round(f.probability * 100)}%`;
    case "link-latency":
      return `latency ${f.min_ms}-${f.max_ms} ms`;
    case "drop-message":
      return `drop message ${f.id}`;
    case "propose":
      return `propose to ${p(f.node)}`;
    default:
      return f.type;
  }
}
