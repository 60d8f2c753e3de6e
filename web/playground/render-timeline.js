// The timeline view: one lane per node showing when it believed it led (with its term or
// token), paused and crashed spans, split-brain windows shaded red across every lane, stale
// writes marked rejected or accepted, and faults. Dragging on it seeks.
import { setAttrs, svg } from "./svg.js";

const LABEL = 44;
const LANE = 17;
const TOP = 4;

export class TimelineView {
  /** @param {SVGSVGElement} root @param {{onSeek?:(ms:number)=>void}} handlers */
  constructor(root, handlers = {}) {
    this.root = root;
    this.handlers = handlers;
    setAttrs(root, { "data-testid": "timeline" });
    this.bindSeek();
  }

  /**
   * Draws `record` (a History) for the processes `nodeKeys`, the cursor at `now`, over
   * [0, spanMs]. `lease` adds a resource lane for writes.
   */
  render(record, nodeKeys, now, spanMs, lease) {
    const lanes = [...nodeKeys, ...(lease ? ["writes"] : []), "faults"];
    const h = TOP + lanes.length * LANE + 16;
    const W = Math.max(300, Math.round(this.root.clientWidth || 1000));
    this.W = W;
    this.span = spanMs;
    setAttrs(this.root, { viewBox: `0 0 ${W} ${h}`, height: h });
    const x = (ms) => LABEL + ((W - LABEL - 6) * Math.min(ms, spanMs)) / spanMs;
    const y = (i) => TOP + i * LANE;
    const out = [];
    lanes.forEach((k, i) => {
      out.push(svg("rect", { x: LABEL, y: y(i) + 1, width: W - LABEL - 6, height: LANE - 2, class: "lane" }));
      out.push(svg("text", { x: LABEL - 6, y: y(i) + LANE - 5, class: "lane-label" }, k));
    });
    nodeKeys.forEach((k, i) => {
      for (const s of record.lead.get(k) ?? []) {
        const to = s.to ?? record.maxTime;
        const wpx = Math.max(1.5, x(to) - x(s.from));
        const g = svg("g", { class: "lead", "data-testid": `lead-${k}` },
          svg("title", {}, `${k} led (${lease ? "token" : "term"} ${s.value}) ${fmt(s.from)}–${s.to == null ? "now" : fmt(to)}`),
          svg("rect", { x: x(s.from), y: y(i) + 2, width: wpx, height: LANE - 4 }));
        if (wpx > 34) g.append(svg("text", { x: x(s.from) + 4, y: y(i) + LANE - 5 }, `★ ${s.value}`));
        out.push(g);
      }
      for (const s of record.down.get(k) ?? []) {
        const to = s.to ?? record.maxTime;
        out.push(svg("rect", { x: x(s.from), y: y(i) + 3, width: Math.max(1.5, x(to) - x(s.from)), height: LANE - 6, class: `span ${s.kind}` }, svg("title", {}, `${k} ${s.kind} ${fmt(s.from)}–${fmt(to)}`)));
      }
    });
    const laneBottom = y(nodeKeys.length);
    for (const s of record.splits) {
      const to = s.to ?? record.maxTime;
      out.push(svg("rect", { x: x(s.from), y: TOP, width: Math.max(2, x(to) - x(s.from)), height: laneBottom - TOP, class: "split", "data-testid": "split-window" },
        svg("title", {}, `split brain: ${fmt(to - s.from)} from ${fmt(s.from)}`)));
    }
    if (lease) {
      const wy = y(nodeKeys.length) + LANE / 2;
      for (const w of record.writes) {
        if (w.accepted && !w.stale) continue;
        const cx = x(w.time);
        const rejected = !w.accepted;
        const mark = rejected
          ? svg("path", { d: `M${cx - 4} ${wy - 4}L${cx + 4} ${wy + 4}M${cx + 4} ${wy - 4}L${cx - 4} ${wy + 4}`, class: "write rejected" })
          : svg("path", { d: `M${cx} ${wy - 6}L${cx + 6} ${wy + 5}L${cx - 6} ${wy + 5}z`, class: "write stale" });
        mark.setAttribute("data-testid", rejected ? "write-rejected" : "write-stale-accepted");
        mark.append(svg("title", {}, `${rejected ? "stale write rejected" : "STALE WRITE ACCEPTED"} at ${fmt(w.time)}: ${w.from} presented ${w.presented ?? "no token"}, resource had ${w.required}`));
        out.push(mark);
      }
    }
    const fy = y(lanes.length - 1);
    let lastLabelX = -1e9;
    for (const f of record.faults) {
      const fx = x(f.time);
      const g = svg("g", { class: "fault", "data-testid": "fault-mark" }, svg("title", {}, `${fmt(f.time)}: ${f.label}`),
        svg("path", { d: `M${fx} ${fy + 3}v${LANE - 5}M${fx} ${fy + 3}h7l-2 3l2 3h-7` }));
      if (fx - lastLabelX > 110 && fx < W - 90) {
        g.append(svg("text", { x: fx + 9, y: fy + LANE - 5 }, f.label));
        lastLabelX = fx;
      }
      out.push(g);
    }
    if (record.maxTime < spanMs) out.push(svg("rect", { x: x(record.maxTime), y: TOP, width: W - 6 - x(record.maxTime), height: h - TOP - 16, class: "unreached" }));
    out.push(svg("line", { x1: x(now), x2: x(now), y1: 0, y2: h - 14, class: "cursor" }));
    out.push(svg("text", { x: Math.min(Math.max(x(now), LABEL + 24), W - 30), y: h - 3, class: "cursor-label" }, fmt(now)));
    out.push(svg("text", { x: LABEL, y: h - 3, class: "axis" }, "0"));
    out.push(svg("text", { x: W - 8, y: h - 3, class: "axis end" }, fmt(spanMs)));
    this.root.replaceChildren(...out);
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

function fmt(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}
