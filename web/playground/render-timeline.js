// The timeline view: one lane per node showing when it believed it led (with its term or
// token), paused and crashed spans, split-brain windows shaded red across every lane, stale
// writes marked rejected or accepted, and faults. Dragging on it seeks; it is also a slider
// (arrow keys, Page Up/Down, Home/End) with the time as its value text.
import { setAttrs, setText, svg } from "./svg.js";

const LABEL = 44;
const LANE = 17;
const TOP = 4;
/** Faults closer than this (px) share one flag: "3 faults", each listed in its tooltip. */
const FLAG_MERGE_PX = 9;
/** Rows of fault labels in the faults lane. */
const FAULT_ROWS = 2;
/** Approximate advance of the 10.5 px label fonts, px per character (a little over, to be safe). */
const CHAR_PX = 6.4;
const AXIS_STEPS = [100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_200_000, 1_800_000, 3_600_000];

export class TimelineView {
  /** @param {SVGSVGElement} root @param {{onSeek?:(ms:number)=>void}} handlers */
  constructor(root, handlers = {}) {
    this.root = root;
    this.handlers = handlers;
    setAttrs(root, { "data-testid": "timeline", role: "slider", tabindex: 0, "aria-label": "Time (arrow keys scrub)", "aria-valuemin": 0 });
    this.bindSeek();
    this.bindKeys();
  }

  /** Arrow keys: ±100 ms (Shift: ±1 s); Page Up/Down ±1 s; Home: 0; End: the furthest time reached. */
  bindKeys() {
    this.root.addEventListener("blur", () => (this.pendingKey = undefined));
    this.root.addEventListener("keydown", (e) => {
      if (this.now === undefined || e.altKey || e.ctrlKey || e.metaKey) return;
      const big = 1000;
      const small = e.shiftKey ? big : 100;
      // Keys pressed faster than frames add up: step from the seek still pending.
      const now = this.pendingKey ?? this.now;
      const to = {
        ArrowRight: now + small, ArrowUp: now + small, ArrowLeft: now - small, ArrowDown: now - small,
        PageUp: now + big, PageDown: now - big, Home: 0, End: this.furthest,
      }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      e.stopPropagation();
      this.pendingKey = Math.max(0, Math.min(to, this.span));
      this.handlers.onSeek?.(this.pendingKey);
    });
  }

  /**
   * The width to draw at, px: from the element's ResizeObserver (its content box), so no
   * redraw reads layout. Until the first report the view draws 1000 px wide.
   */
  resize(width) {
    this.width = width;
  }

  /**
   * Draws `record` (a History) for the processes `nodeKeys`, the cursor at `now`, over
   * [0, spanMs]. `lease` adds a resource lane for writes.
   *
   * Incremental: while the record, the lanes, the span and the width stay the same, a redraw
   * appends the marks recorded since the last one and redraws only what can still change (the
   * spans still open, the newest fault flags, the cursor and the axis), so its cost does not
   * grow with the run's length. Anything else starts a full draw (`rebuild`); either way the
   * result is the same DOM as a full draw of the same record (tests/web/timeline-incremental).
   */
  render(record, nodeKeys, now, spanMs, lease) {
    this.lastArgs = [record, nodeKeys, now, spanMs, lease];
    const W = Math.max(300, Math.round(this.width ?? 1000));
    const key = `${W}|${spanMs}|${lease}|${nodeKeys.join(",")}`;
    if (!this.drawn || this.drawn.record !== record || this.drawn.key !== key) this.rebuild(record, nodeKeys, spanMs, lease, W, key);
    this.update(now);
    this.drawLit();
  }

  /** A full draw of the lanes and every mark of `record` (the cursor comes from `update`). */
  rebuild(record, nodeKeys, spanMs, lease, W, key) {
    this.rebuilds = (this.rebuilds ?? 0) + 1;
    const lanes = [...nodeKeys, ...(lease ? ["writes"] : []), "faults"];
    const faultsH = LANE * FAULT_ROWS;
    const laneTop = (i) => TOP + i * LANE;
    const lanesBottom = laneTop(lanes.length - 1) + faultsH;
    const h = lanesBottom + 18;
    this.W = W;
    this.span = spanMs;
    setAttrs(this.root, { viewBox: `0 0 ${W} ${h}`, height: h, "aria-valuemax": Math.round(spanMs) });
    const x = (ms) => LABEL + ((W - LABEL - 6) * Math.min(ms, spanMs)) / spanMs;
    const y = laneTop;
    const out = [];
    lanes.forEach((k, i) => {
      const hh = k === "faults" ? faultsH : LANE;
      out.push(svg("rect", { x: LABEL, y: y(i) + 1, width: W - LABEL - 6, height: hh - 2, class: "lane" }));
      out.push(svg("text", { x: LABEL - 6, y: y(i) + LANE - 5, class: "lane-label" }, k));
    });
    // Not reached yet: drawn under every mark and label, so none is washed out.
    const unreached = svg("rect", { y: TOP, height: lanesBottom - TOP, class: "unreached" });
    out.push(unreached);
    const lists = [];
    const list = (items, draw, redraw) => {
      const g = svg("g");
      out.push(g);
      lists.push({ items, draw, redraw, g, els: [], open: new Set() });
    };
    const leaseGroups = [];
    nodeKeys.forEach((k, i) => {
      list(() => record.lead.get(k), (s) => leadMark(s, k, lease, record.maxTime, x, y(i)), (el, s) => redrawLead(el, s, k, lease, record.maxTime, x, y(i)));
      list(() => record.down.get(k), (s) => downMark(s, k, record.maxTime, x, y(i)), (el, s) => redrawSpan(el, `span ${s.kind}`, s, 1.5, record.maxTime, x, downTitle(s, k, record.maxTime)));
      // Over the pause: the point is the pause that outlives both marks.
      if (lease) {
        const g = svg("g");
        out.push(g);
        leaseGroups.push({ g, k, top: y(i) });
      }
    });
    const laneBottom = y(nodeKeys.length);
    list(() => record.splits, (s) => splitMark(s, record.maxTime, x, laneBottom), (el, s) => redrawSpan(el, "split", s, 2, record.maxTime, x, splitTitle(s, record.maxTime)));
    if (lease) list(() => record.writes, (w) => writeMark(w, x(w.time), y(nodeKeys.length) + LANE / 2));
    const faults = new FaultLane(x, y(lanes.length - 1), LABEL, W - 6);
    out.push(faults.g);
    const cursor = svg("line", { y1: 0, y2: lanesBottom + 2, class: "cursor" });
    // The axis's ticks depend on the span and the width only: drawn here, once; the cursor's
    // box moves over them (`update` hides the ticks it would touch).
    const axisG = new Axis(x, spanMs, lanesBottom + 14, LABEL, W - 6);
    out.push(cursor, axisG.g);
    this.root.replaceChildren(...out);
    this.layout = { x, lanes, laneTop, bottom: lanesBottom };
    this.drawn = { record, key, lists, leaseGroups, faults, unreached, cursor, axisG, x, lanesBottom };
  }

  /** Brings the drawn marks up to the record and moves the cursor to `now`. */
  update(now) {
    const { record, lists, leaseGroups, faults, unreached, cursor, axisG, x } = this.drawn;
    const spanMs = this.span;
    const W = this.W;
    this.now = now;
    if (this.pendingKey !== undefined && Math.abs(now - this.pendingKey) < 1e-3) this.pendingKey = undefined;
    this.furthest = record.maxTime;
    setAttrs(this.root, { "aria-valuenow": Math.round(now), "aria-valuetext": `${fmt(now)} of ${fmt(spanMs)}` });
    const reached = record.maxTime >= spanMs;
    setAttrs(unreached, { display: reached ? "none" : undefined, x: reached ? undefined : x(record.maxTime), width: reached ? undefined : W - 6 - x(record.maxTime) });
    for (const l of lists) syncList(l);
    for (const { g, k, top } of leaseGroups) g.replaceChildren(...leaseMarks(record, k, now, x, top));
    faults.sync(record.faults);
    setAttrs(cursor, { x1: x(now), x2: x(now) });
    axisG.update(now);
  }

  /**
   * Marks message `m` (a History message record, hovered in another view) on the timeline:
   * a band from its send to its arrival or drop, a dot in its sender's and receiver's lanes.
   * null clears it. Kept across redraws.
   */
  highlight(m) {
    this.litMsg = m;
    this.drawLit();
  }

  drawLit() {
    this.litEl?.remove();
    this.litEl = null;
    const m = this.litMsg;
    if (!m || !this.layout) return;
    const { x, lanes, laneTop, bottom } = this.layout;
    const end = m.end ?? m.arrival;
    const x1 = x(m.send);
    const x2 = Math.max(x1 + 2, x(end));
    const lane = (k) => lanes.indexOf(k === "resource" ? "writes" : k);
    const g = svg("g", { class: "msg-lit", "data-testid": "timeline-message", "data-msg": m.id },
      svg("title", {}, `${m.kind} ${m.from} → ${m.to}, sent ${fmt(m.send)}, ${m.fate && m.fate !== "delivered" ? `dropped ${fmt(end)}` : `arrives ${fmt(end)}`}`),
      svg("rect", { x: x1, y: TOP, width: x2 - x1, height: bottom - TOP, class: "msg-band" }));
    const from = lane(m.from);
    const to = lane(m.to);
    if (from >= 0) g.append(svg("circle", { cx: x1, cy: laneTop(from) + LANE / 2, r: 4 }));
    if (to >= 0) g.append(svg("circle", { cx: x2, cy: laneTop(to) + LANE / 2, r: 4 }));
    if (from >= 0 && to >= 0) g.append(svg("line", { x1, y1: laneTop(from) + LANE / 2, x2, y2: laneTop(to) + LANE / 2 }));
    this.root.append(g);
    this.litEl = g;
  }

  bindSeek() {
    let dragging = false;
    const seek = (e) => {
      const box = this.root.getBoundingClientRect();
      const W = this.W ?? box.width;
      const vx = ((e.clientX - box.left) / box.width) * W;
      const ms = ((vx - LABEL) / (W - LABEL - 6)) * (this.span ?? 0);
      this.handlers.onSeek?.(Math.max(0, ms));
    };
    this.root.addEventListener("pointerdown", (e) => {
      dragging = true;
      this.root.setPointerCapture?.(e.pointerId);
      seek(e);
    });
    this.root.addEventListener("pointermove", (e) => dragging && seek(e));
    this.root.addEventListener("pointerup", () => (dragging = false));
    this.root.addEventListener("pointercancel", () => (dragging = false));
  }
}

/**
 * A holder's lease on its lane: its local deadline (a bar) and the store's expiry of its lease
 * (a diamond), as known at the cursor, and as they last stood when each of its leaderships
 * ended, so the margin between the two, and a pause that outlives both, can be seen.
 */
function leaseMarks(record, k, now, x, top) {
  const samples = (record.leases?.get(k) ?? []).filter((s) => s.time <= now + 1e-6);
  const picks = new Map();
  const last = (t, field) => samples.findLast((s) => s.time <= t + 1e-6 && s[field] != null)?.[field] ?? null;
  for (const span of record.lead.get(k) ?? []) {
    if (span.from > now) continue;
    const end = span.to ?? now;
    const s = { deadline: last(end, "deadline"), expiry: last(end, "expiry") };
    // Marks from before this leadership belong to an earlier one.
    if (s.deadline != null && s.deadline < span.from) s.deadline = null;
    if (s.expiry != null && s.expiry < span.from) s.expiry = null;
    picks.set(`${s.deadline}|${s.expiry}`, s);
  }
  const out = [];
  for (const s of picks.values()) {
    if (s.deadline != null) {
      const cx = x(s.deadline);
      out.push(svg("path", { d: `M${cx} ${top + 1}V${top + LANE - 1}M${cx - 3} ${top + 1}h6M${cx - 3} ${top + LANE - 1}h6`, class: "lease-deadline", "data-testid": "lease-deadline" },
        svg("title", {}, `${k}'s local lease deadline: ${fmt(s.deadline)} (it stops leading by then)`)));
    }
    if (s.expiry != null) {
      const cx = x(s.expiry);
      const cy = top + LANE / 2;
      out.push(svg("path", { d: `M${cx} ${cy - 5}l5 5l-5 5l-5 -5z`, class: "lease-expiry", "data-testid": "lease-expiry" },
        svg("title", {}, `the store's expiry of ${k}'s lease: ${fmt(s.expiry)}${s.deadline != null ? ` (${fmt(s.expiry - s.deadline)} after the local deadline)` : ""}`)));
    }
  }
  return out;
}

/**
 * Brings group `l.g` in step with the list `l.items()`: draws the items added since, redraws
 * the ones that were still open (`to === null`) when drawn, and drops any the list no longer
 * has (not expected: the lists only grow; a different record is drawn from scratch). An open
 * mark is brought up to date in place (`l.redraw`: its width and tooltip, the same DOM as a
 * fresh draw), or replaced by a fresh one when that cannot be done.
 */
function syncList(l) {
  const items = l.items() ?? [];
  while (l.els.length > items.length) {
    l.els.pop().remove();
    l.open.delete(l.els.length);
  }
  for (const i of l.open) {
    if (!l.redraw?.(l.els[i], items[i])) {
      const el = l.draw(items[i]);
      l.els[i].replaceWith(el);
      l.els[i] = el;
    }
    if (items[i].to !== null) l.open.delete(i);
  }
  for (let i = l.els.length; i < items.length; i++) {
    const el = l.draw(items[i]);
    l.g.append(el);
    l.els.push(el);
    if (items[i].to === null) l.open.add(i);
  }
}

function leadMark(s, k, lease, maxTime, x, top) {
  const to = s.to ?? maxTime;
  const wpx = Math.max(1.5, x(to) - x(s.from));
  const g = svg("g", { class: "lead", "data-testid": `lead-${k}` },
    svg("title", {}, leadTitle(s, k, lease, maxTime)),
    svg("rect", { x: x(s.from), y: top + 2, width: wpx, height: LANE - 4 }));
  if (wpx > 34) g.append(leadLabel(s, x, top));
  return g;
}

const leadTitle = (s, k, lease, maxTime) => `${k} led (${lease ? "token" : "term"} ${s.value}) ${fmt(s.from)}–${s.to == null ? "now" : fmt(s.to ?? maxTime)}`;
const leadLabel = (s, x, top) => svg("text", { x: x(s.from) + 4, y: top + LANE - 5 }, `★ ${s.value}`);

/** leadMark's draw of `s` written into `g`, drawn when `s` was open (its end and label grow). */
function redrawLead(g, s, k, lease, maxTime, x, top) {
  const [title, rect, label] = g.children;
  const wpx = Math.max(1.5, x(s.to ?? maxTime) - x(s.from));
  if (label && !(wpx > 34)) return false;
  setText(title, leadTitle(s, k, lease, maxTime));
  setAttrs(rect, { width: wpx });
  if (wpx > 34 && !label) g.append(leadLabel(s, x, top));
  return true;
}

function downMark(s, k, maxTime, x, top) {
  const to = s.to ?? maxTime;
  return svg("rect", { x: x(s.from), y: top + 3, width: Math.max(1.5, x(to) - x(s.from)), height: LANE - 6, class: `span ${s.kind}` }, svg("title", {}, downTitle(s, k, maxTime)));
}

const downTitle = (s, k, maxTime) => `${k} ${s.kind} ${fmt(s.from)}–${fmt(s.to ?? maxTime)}`;

function splitMark(s, maxTime, x, laneBottom) {
  const to = s.to ?? maxTime;
  return svg("rect", { x: x(s.from), y: TOP, width: Math.max(2, x(to) - x(s.from)), height: laneBottom - TOP, class: "split", "data-testid": "split-window" },
    svg("title", {}, splitTitle(s, maxTime)));
}

const splitTitle = (s, maxTime) => `split brain: ${fmt((s.to ?? maxTime) - s.from)} from ${fmt(s.from)}`;

/**
 * A span's rect (downMark, splitMark) of class `cls`, drawn while `s` was open, written as
 * it would be drawn now: its width (at least `minW` px) and its tooltip `title`.
 */
function redrawSpan(rect, cls, s, minW, maxTime, x, title) {
  if (rect.getAttribute("class") !== cls) return false;
  setAttrs(rect, { width: Math.max(minW, x(s.to ?? maxTime) - x(s.from)) });
  setText(rect.firstChild, title);
  return true;
}

/** A write the timeline marks (rejected, or accepted stale); accepted fresh ones draw nothing. */
function writeMark(w, cx, wy) {
  if (w.accepted && !w.stale) return svg("g");
  const rejected = !w.accepted;
  const mark = rejected
    ? svg("path", { d: `M${cx - 4} ${wy - 4}L${cx + 4} ${wy + 4}M${cx + 4} ${wy - 4}L${cx - 4} ${wy + 4}`, class: "write rejected" })
    : svg("path", { d: `M${cx} ${wy - 6}L${cx + 6} ${wy + 5}L${cx - 6} ${wy + 5}z`, class: "write stale" });
  mark.setAttribute("data-testid", rejected ? "write-rejected" : "write-stale-accepted");
  mark.append(svg("title", {}, `${rejected ? "stale write rejected" : "STALE WRITE ACCEPTED"} at ${fmt(w.time)}: ${w.from} presented ${w.presented ?? "no token"}, resource had ${w.required}`));
  return mark;
}

/**
 * The faults lane, drawn as faults arrive: faults within FLAG_MERGE_PX share a flag
 * ("3 faults"); each flag's label goes in the first of FAULT_ROWS rows where it does not
 * overlap the previous label (right of the flag, or left of it near the end); a flag with no
 * room keeps its tooltip and a number, and stands in a row no label covers.
 *
 * Only the newest flag can still change (a fault joining it), and a label placed can only
 * cover flags left of it within its own width, so each sync redraws that much and no more.
 */
class FaultLane {
  constructor(x, top, x0, x1) {
    Object.assign(this, { x, top, x0, x1 });
    this.g = svg("g");
    this.count = 0;
    /** Flags in order: `{x, faults, label, row, taken, before, el}`. */
    this.groups = [];
    this.rowEnd = Array(FAULT_ROWS).fill(-Infinity);
    /** Per row, the x ranges its labels cover: an unlabelled flag's pole must miss them. */
    this.taken = Array.from({ length: FAULT_ROWS }, () => []);
  }

  sync(faults) {
    if (faults.length < this.count) {
      // Not expected (faults are only appended): start the lane over.
      this.g.replaceChildren();
      Object.assign(this, new FaultLane(this.x, this.top, this.x0, this.x1), { g: this.g });
    }
    if (faults.length === this.count) return;
    let dirtyFrom = Infinity;
    const changed = new Set();
    for (let i = this.count; i < faults.length; i++) {
      const f = faults[i];
      const fx = this.x(f.time);
      const last = this.groups.at(-1);
      if (last && fx - last.x < FLAG_MERGE_PX) {
        // The newest flag gains a fault: take back its label's place and place it again.
        dirtyFrom = Math.min(dirtyFrom, this.unplace(last));
        last.faults.push(f);
        dirtyFrom = Math.min(dirtyFrom, this.place(last));
        changed.add(last);
      } else {
        const g = { x: fx, faults: [f], el: null };
        this.groups.push(g);
        dirtyFrom = Math.min(dirtyFrom, this.place(g));
        changed.add(g);
      }
    }
    this.count = faults.length;
    // Unlabelled flags a new label now covers move to another row (or to a notch).
    for (let i = this.groups.length - 1; i >= 0 && this.groups[i].x >= dirtyFrom - 2; i--) if (!this.groups[i].row) changed.add(this.groups[i]);
    for (const g of changed) {
      const el = this.draw(g);
      if (g.el) g.el.replaceWith(el);
      else this.g.append(el);
      g.el = el;
    }
  }

  /** Places `g`'s label; returns the left end of the range it covers (Infinity if none). */
  place(g) {
    g.label = g.faults.length === 1 ? g.faults[0].label : `${g.faults.length} faults`;
    g.before = [...this.rowEnd];
    const w = g.label.length * CHAR_PX;
    g.row = findRow(this.rowEnd, g.x, w, this.x0, this.x1);
    g.taken = null;
    if (!g.row) return Infinity;
    g.taken = g.row.anchorEnd ? [g.row.textX - w - 2, g.x + 2] : [g.x - 2, g.row.textX + w + 2];
    this.taken[g.row.row].push(g.taken);
    return g.taken[0];
  }

  /** Undoes `place(g)` (g must be the newest flag); returns the left end it had covered. */
  unplace(g) {
    this.rowEnd = g.before;
    if (!g.row) return Infinity;
    this.taken[g.row.row].pop();
    return g.taken[0];
  }

  draw(g) {
    const { top } = this;
    const { label, row } = g;
    const title = svg("title", {}, g.faults.map((f) => `${fmt(f.time)}: ${f.label}`).join("\n"));
    const el = svg("g", { class: "fault", "data-testid": "fault-mark", "data-count": g.faults.length }, title);
    // A flag stands in its own row only, so its pole never crosses another row's label.
    let r = row?.row;
    if (r === undefined) r = this.taken.findIndex((spans) => !spans.some(([a, b]) => g.x >= a && g.x <= b));
    if (r >= 0) {
      const fy = top + r * LANE;
      el.append(svg("path", { d: `M${g.x} ${fy + 3}V${fy + LANE - 2}M${g.x} ${fy + 3}h7l-2 3l2 3h-7` }));
    } else {
      // Every row's label covers this time: a small notch on the lane's top edge.
      el.append(svg("path", { d: `M${g.x - 3} ${top - 2}h6l-3 3.5z` }));
    }
    if (row) el.append(svg("text", { x: row.textX, y: top + row.row * LANE + LANE - 5, class: row.anchorEnd ? "end" : undefined, "data-testid": "fault-label" }, label));
    return el;
  }
}

/** The first row with room for a label of `w` px at flag `fx`: right of it, or left near the end. */
function findRow(rowEnd, fx, w, x0, x1) {
  for (let row = 0; row < rowEnd.length; row++) {
    const right = fx + 9;
    if (right > rowEnd[row] + 6 && right + w <= x1) {
      rowEnd[row] = right + w;
      return { row, textX: right, anchorEnd: false };
    }
    const left = fx - 4 - w;
    if (right + w > x1 && left > Math.max(rowEnd[row] + 6, x0)) {
      rowEnd[row] = fx;
      return { row, textX: fx - 4, anchorEnd: true };
    }
  }
  return null;
}

/**
 * The time axis: ticks at a round step with at least ~70 px between labels, and the cursor's
 * time in a box over them (ticks it would touch are hidden, so nothing overprints). The ticks
 * are made once per span and width; `update` moves the box and hides or shows ticks.
 */
class Axis {
  constructor(x, spanMs, y, x0, x1) {
    Object.assign(this, { x, y, x0, x1 });
    const pxPerMs = (x1 - x0) / spanMs;
    const step = AXIS_STEPS.find((s) => s * pxPerMs >= 70) ?? AXIS_STEPS.at(-1);
    this.g = svg("g");
    /** `{el, l, w, hidden}`: each tick's label, its left end and width. */
    this.ticks = [];
    for (let t = 0; t <= spanMs + 1e-6; t += step) {
      const text = t === 0 ? "0" : fmtTick(t, step);
      const w = text.length * CHAR_PX;
      const lx = x(t);
      const anchor = t === 0 ? "start" : lx + w / 2 > x1 ? "end" : "middle";
      if (anchor === "middle" && spanMs - t < step && x(spanMs) - lx < w) continue;
      const ax = anchor === "end" ? x1 : lx;
      const el = svg("text", { x: ax, y, class: `axis ${anchor}`, "data-testid": "axis-label" }, text);
      this.ticks.push({ el, l: anchor === "start" ? ax : anchor === "end" ? ax - w : ax - w / 2, w, hidden: false });
      this.g.append(el);
    }
    this.box = svg("rect", { y: y - 10, height: 13, rx: 3, class: "cursor-box" });
    this.label = svg("text", { y, class: "cursor-label", "data-testid": "cursor-label" });
    this.g.append(this.box, this.label);
  }

  update(now) {
    const { x, x0, x1 } = this;
    const cursorText = fmt(now);
    const cw = cursorText.length * CHAR_PX + 8;
    const cx = Math.min(Math.max(x(now), x0 + cw / 2), x1 - cw / 2);
    for (const t of this.ticks) {
      const hidden = !(t.l + t.w + 4 < cx - cw / 2 || t.l - 4 > cx + cw / 2);
      if (hidden !== t.hidden) setAttrs(t.el, { display: hidden ? "none" : undefined });
      t.hidden = hidden;
    }
    setAttrs(this.box, { x: cx - cw / 2, width: cw });
    setAttrs(this.label, { x: cx });
    if (this.label.textContent !== cursorText) this.label.textContent = cursorText;
  }
}

function fmtTick(ms, step) {
  if (step >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (step >= 1000) return `${ms / 1000} s`;
  return ms >= 1000 ? `${(ms / 1000).toFixed(step % 1000 === 0 ? 0 : step % 100 === 0 ? 1 : 2)} s` : `${ms} ms`;
}

function fmt(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}
