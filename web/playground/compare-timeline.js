// The comparison's one timeline: a row per pane showing, over the run, when no node led
// (grey), one did (green) and two or more acted as leader at once (red, split brain), the
// shared faults as marks, and the time now. Seeking is the range input under it (keyboard
// and pointer); the drawing is its picture.
import { svg, setAttrs } from "./svg.js";

const ROW = 22;
/** Fault labels sit in up to this many rows above the panes, so they never overlap. */
const LABEL_ROWS = 3;
const CHAR_W = 6;

/** `spans` minus `holes` (both `{from, to|null}`, open ones end at `now`). */
function subtract(spans, holes, now) {
  let out = spans.map((s) => [s.from, s.to ?? now]);
  for (const h of holes) {
    const [a, b] = [h.from, h.to ?? now];
    out = out.flatMap(([f, t]) => (b <= f || a >= t ? [[f, t]] : [[f, a], [b, t]].filter(([x, y]) => y > x)));
  }
  return out;
}

/**
 * Segments of a history by how many nodes act as leader (lead, and are neither paused nor
 * crashed): `[{from, to, count}]` up to `now`.
 */
export function leaderSegments(history, now) {
  const edges = [];
  for (const [key, spans] of history.lead) for (const [from, to] of subtract(spans, history.down.get(key) ?? [], now)) {
    edges.push([from, 1]);
    edges.push([to, -1]);
  }
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out = [];
  let count = 0;
  let at = 0;
  for (const [t, d] of edges) {
    const tt = Math.min(t, now);
    if (tt > at) out.push({ from: at, to: tt, count });
    at = Math.max(at, tt);
    count += d;
  }
  if (now > at) out.push({ from: at, to: now, count });
  return out;
}

export class CompareTimelineView {
  constructor(root) {
    this.root = root;
    setAttrs(root, { class: "compare-timeline", role: "img", "data-testid": "compare-timeline" });
  }

  render(panes, histories, faults, now, span) {
    const w = Math.max(300, this.root.getBoundingClientRect().width || 640);
    const LABEL_W = Math.min(150, Math.round(w * 0.3));
    const x = (t) => LABEL_W + (Math.min(t, span) / span) * (w - LABEL_W - 8);
    // Fault labels: each in the first row where it fits after the previous one; a label that
    // fits nowhere is cut to what fits (its full text stays in the mark's tooltip).
    const ends = [];
    const marks = faults.map((f) => {
      const at = x(f.at_ms) + 3;
      let row = ends.findIndex((e) => e <= at);
      if (row < 0 && ends.length < LABEL_ROWS) row = ends.length;
      let text = f.label;
      if (row < 0) {
        row = ends.indexOf(Math.min(...ends));
        text = "";
      }
      const room = Math.max(0, Math.floor((w - at - 4) / CHAR_W));
      if (text.length > room) text = `${text.slice(0, Math.max(0, room - 1))}…`;
      ends[row] = at + text.length * CHAR_W + 8;
      return { ...f, row, text };
    });
    const TOP = 6 + Math.max(1, ends.length) * 13;
    const h = TOP + panes.length * ROW + 6;
    setAttrs(this.root, { viewBox: `0 0 ${w} ${h}`, height: h, "aria-label": `Timeline of ${panes.length} panes: leaders over time, split brain in red, faults marked; now ${Math.round(now)} ms of ${span} ms.` });
    const kids = [];
    panes.forEach((p, i) => {
      const y = TOP + i * ROW;
      // A long name is cut to its column (the full name in its tooltip).
      const room = Math.floor((LABEL_W - 10) / 6.5);
      const name = p.label.length > room ? `${p.label.slice(0, room - 1)}…` : p.label;
      kids.push(svg("text", { x: 4, y: y + 15, class: "ct-label" }, svg("title", {}, p.label), name));
      kids.push(svg("rect", { x: x(0), y: y + 3, width: x(span) - x(0), height: ROW - 6, class: "ct-future" }));
      const hist = histories[i];
      for (const s of leaderSegments(hist, now)) {
        kids.push(svg("rect", { x: x(s.from), y: y + 3, width: Math.max(0.5, x(s.to) - x(s.from)), height: ROW - 6, class: s.count === 0 ? "ct-none" : "ct-one" }));
      }
      // Stale writes: accepted ones as a filled triangle, refused ones as a cross.
      for (const wr of hist.writes) {
        if (wr.time > now || !(wr.stale || !wr.accepted)) continue;
        const cx = x(wr.time);
        kids.push(wr.accepted
          ? svg("path", { d: `M${cx - 5},${y + ROW - 3} L${cx + 5},${y + ROW - 3} L${cx},${y + 3} Z`, class: "ct-stale" }, svg("title", {}, `${wr.from}'s stale write accepted`))
          : svg("path", { d: `M${cx - 4},${y + 7} L${cx + 4},${y + 15} M${cx + 4},${y + 7} L${cx - 4},${y + 15}`, class: "ct-refused" }, svg("title", {}, `${wr.from}'s write refused`)));
      }
      for (const s of hist.splits) {
        const to = s.to ?? now;
        kids.push(svg("rect", { x: x(s.from), y: y + 3, width: Math.max(1.5, x(to) - x(s.from)), height: ROW - 6, class: "ct-split" }));
      }
    });
    for (const f of marks) {
      kids.push(svg("line", { x1: x(f.at_ms), x2: x(f.at_ms), y1: 13 * f.row + 2, y2: h - 4, class: "ct-fault" }, svg("title", {}, f.label)));
      if (f.text) kids.push(svg("text", { x: x(f.at_ms) + 3, y: 13 * f.row + 11, class: "ct-fault-label" }, f.text));
    }
    kids.push(svg("line", { x1: x(now), x2: x(now), y1: 2, y2: h, class: "ct-now" }));
    this.root.replaceChildren(...kids);
  }
}
