// The timeline's record: what each node believed and when, split-brain windows, writes and
// faults, gathered from the simulation's own trace events. One History follows one run from
// time 0; the timeline keeps the furthest one for display while a replay catches up.
import { procKey } from "./procs.js";

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
    /** @type {Map<string, {leader:boolean,paused:boolean,crashed:boolean}>} acting-leader state */
    this.state = new Map();
  }

  /** Records trace events (oldest first), then notes that the run has reached `nowMs`. */
  ingest(events, nowMs) {
    for (const ev of events) this.ingestEvent(ev, ev.time_ms);
    this.maxTime = Math.max(this.maxTime, nowMs);
  }

  ingestEvent(ev, t) {
    switch (ev.event) {
      case "node":
        this.ingestNode(procKey(ev.proc), ev.what, ev.value, t);
        break;
      case "write":
        // Only the writes the timeline marks: rejected ones and stale ones (bounded by faults).
        if (ev.accepted && !ev.stale) break;
        this.writes.push({
          time: t,
          from: procKey(ev.from),
          accepted: ev.accepted,
          stale: ev.stale,
          presented: ev.presented == null ? null : String(ev.presented),
          required: String(ev.required),
        });
        break;
      case "fault":
        this.faults.push({ time: t, label: faultLabel(ev.fault), fault: ev.fault });
        break;
      default:
    }
  }

  ingestNode(key, what, value, t) {
    let st = this.state.get(key);
    if (!st) this.state.set(key, (st = { leader: false, paused: false, crashed: false }));
    if (what === "became-leader") st.leader = true;
    if (what === "stepped-down") st.leader = false;
    if (what === "crashed") Object.assign(st, { leader: false, crashed: true, paused: false });
    if (what === "restarted") st.crashed = false;
    if (what === "paused") st.paused = true;
    if (what === "resumed") st.paused = false;
    this.updateSplit(t);
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

  /**
   * Split brain: two or more nodes acting as leader (up, not paused, believing they lead),
   * the same definition as the simulator's `split_brain_us` metric, tracked from the events.
   */
  updateSplit(t) {
    let acting = 0;
    for (const st of this.state.values()) if (st.leader && !st.paused && !st.crashed) acting += 1;
    const open = this.splits.at(-1)?.to === null ? this.splits.at(-1) : undefined;
    if (acting >= 2 && !open) this.splits.push({ from: t, to: null });
    if (acting < 2 && open) {
      if (t > open.from) open.to = t;
      else this.splits.pop();
    }
  }

  spans(map, key) {
    let list = map.get(key);
    if (!list) map.set(key, (list = []));
    return list;
  }
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
    default:
      return f.type;
  }
}
