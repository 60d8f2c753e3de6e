// The space-time diagram (a Lamport diagram): one vertical line per process, time running
// down, each message an arrow from its send to its arrival, drops crossed out, faults as
// dashed rules across, leadership shaded along the leader's line, pauses and crashes hatched.
// It shows a window of the run ending at the cursor, reads only the History, and carries its
// own <style>, so `standalone()` is a complete SVG file.
import { svg } from "./svg.js";

const HEAD = 30;
const LEFT = 58;
const RIGHT = 110;
const BODY = 380;
const NS = "http://www.w3.org/2000/svg";

/** The diagram's own styles: inside the SVG, so the exported file looks the same. */
const STYLE = `
.st-bg { fill: #fff; }
.st-name { font: 600 12px system-ui, sans-serif; fill: #1d232a; text-anchor: middle; }
.st-proc { stroke: #56606b; stroke-width: 1.5; }
.st-lead { fill: #0072b2; fill-opacity: 0.28; }
.st-lead-label { font: 10.5px system-ui, sans-serif; fill: #004a75; }
.st-down { fill: #cc79a7; fill-opacity: 0.45; }
.st-down.crashed { fill: #9aa3ad; fill-opacity: 0.6; }
.st-note { font: 10.5px system-ui, sans-serif; fill: #444c55; }
.st-grid { stroke: #e3e7eb; stroke-width: 1; }
.st-tick { font: 10.5px system-ui, sans-serif; fill: #444c55; text-anchor: end; }
.st-msg { stroke-width: 1.4; fill: none; }
.st-msg.vote { stroke: #b07800; }
.st-msg.beat { stroke: #0072b2; }
.st-msg.store { stroke: #a4487e; }
.st-msg.write { stroke: #007a5a; }
.st-msg.flying { stroke-dasharray: 3 2; }
.st-msg.lit { stroke: #1d232a; stroke-width: 3; }
.st-drop { stroke: #d55e00; stroke-width: 2; }
.st-fault { stroke: #d55e00; stroke-width: 1; stroke-dasharray: 5 3; }
.st-fault-label { font: 600 10.5px system-ui, sans-serif; fill: #a23f00; }
.st-reject { stroke: #d55e00; stroke-width: 2.5; }
.st-reject-label { font: 600 10.5px system-ui, sans-serif; fill: #a23f00; }
.st-stale { fill: #d55e00; }
.st-now { stroke: #1d232a; stroke-width: 1; }
.st-now-label { font: 600 10.5px system-ui, sans-serif; fill: #1d232a; }
`;

/** Message kind -> colour family (as the cluster's legend). */
function family(kind) {
  if (/Vote|Election|Answer|Coordinator/.test(kind)) return "vote";
  if (/Heartbeat|AppendEntries/.test(kind)) return "beat";
  if (/Write|Establish/.test(kind)) return "write";
  return "store";
}

/** Traffic repeated every few ms while nothing changes: hidden unless "all messages" is on. */
const ROUTINE = new Set(["Heartbeat", "AppendEntries", "AppendEntriesResponse", "Write", "WriteResult"]);

/**
 * Whether message `m` is drawn: everything but routine traffic, and of that the writes the
 * resource refused or accepted stale (and their verdicts), which are the story.
 */
function shown(m, notable, all) {
  if (all || !ROUTINE.has(m.kind)) return true;
  if (m.kind === "Write") return notable.has(`${m.from}@${m.end}`);
  if (m.kind === "WriteResult") return notable.has(`${m.to}@${m.send}`);
  return false;
}

export class SpaceTimeView {
  /** @param {SVGSVGElement} root @param {{onSeek?:Function, onHover?:Function}} handlers */
  constructor(root, handlers = {}) {
    this.root = root;
    this.handlers = handlers;
    root.setAttribute("xmlns", NS);
    root.setAttribute("role", "img");
    root.setAttribute("data-testid", "spacetime");
    root.addEventListener("pointerdown", (e) => {
      if (!this.t0 && this.t0 !== 0) return;
      const box = root.getBoundingClientRect();
      const vy = ((e.clientY - box.top) / box.height) * this.H;
      if (vy < HEAD) return;
      this.handlers.onSeek?.(this.t0 + ((vy - HEAD) / BODY) * this.windowMs);
    });
    root.addEventListener("pointerover", (e) => {
      const id = e.target.closest?.("[data-msg]")?.dataset.msg ?? null;
      if (id !== this.hovered) this.handlers.onHover?.((this.hovered = id));
    });
    root.addEventListener("pointerleave", () => this.handlers.onHover?.((this.hovered = null)));
  }

  /** Lights message `id` (hovered in another view), or none. */
  highlight(id) {
    this.lit = id;
    for (const el of this.root.querySelectorAll("[data-msg]")) el.classList.toggle("lit", el.dataset.msg === id);
  }

  /**
   * Draws the window [now - windowMs, now] of `record` (a History) for the processes `keys`
   * (nodes, then store and resource).
   */
  render(record, keys, now, windowMs, { all = false } = {}) {
    const W = Math.max(360, Math.round(this.root.parentElement?.clientWidth || 720));
    const H = HEAD + BODY + 22;
    this.H = H;
    this.windowMs = windowMs;
    const t0 = Math.max(0, now - windowMs);
    this.t0 = t0;
    const t1 = t0 + windowMs;
    const colW = keys.length > 1 ? (W - LEFT - RIGHT) / (keys.length - 1) : 0;
    const X = new Map(keys.map((k, i) => [k, LEFT + i * colW]));
    const y = (t) => HEAD + ((Math.min(Math.max(t, t0), t1) - t0) / windowMs) * BODY;
    const out = [svg("style", {}, STYLE), svg("rect", { x: 0, y: 0, width: W, height: H, class: "st-bg" })];
    // Time grid, one rule per step.
    const step = [1, 2, 5, 10, 20, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000, 30000, 60000].find((s) => (s / windowMs) * BODY >= 40) ?? 60000;
    for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
      out.push(svg("line", { x1: LEFT - 10, x2: W - 8, y1: y(t), y2: y(t), class: "st-grid" }));
      out.push(svg("text", { x: LEFT - 14, y: y(t) + 4, class: "st-tick" }, fmt(t)));
    }
    for (const k of keys) {
      const x = X.get(k);
      out.push(svg("text", { x, y: 18, class: "st-name" }, k));
      for (const s of record.down.get(k) ?? []) {
        const to = s.to ?? now;
        if (to < t0 || s.from > t1) continue;
        out.push(svg("rect", { x: x - 7, y: y(s.from), width: 14, height: Math.max(1, y(to) - y(s.from)), class: `st-down ${s.kind}`, "data-testid": `st-${s.kind}` }, svg("title", {}, `${k} ${s.kind} ${fmt(s.from)}–${fmt(to)}`)));
      }
      for (const s of record.lead.get(k) ?? []) {
        const to = s.to ?? now;
        if (to < t0 || s.from > t1) continue;
        out.push(svg("rect", { x: x - 5, y: y(s.from), width: 10, height: Math.max(1, y(to) - y(s.from)), class: "st-lead", "data-testid": "st-lead" }, svg("title", {}, `${k} leads (${s.value}) ${fmt(s.from)}–${s.to == null ? "now" : fmt(to)}`)));
        if (s.from >= t0) out.push(svg("text", { x: x + 8, y: y(s.from) + 11, class: "st-lead-label" }, `★ ${s.value}`));
      }
      out.push(svg("line", { x1: x, x2: x, y1: HEAD - 4, y2: HEAD + BODY, class: "st-proc" }));
    }
    for (const f of record.faults) {
      if (f.time < t0 || f.time > t1) continue;
      out.push(svg("line", { x1: LEFT - 10, x2: W - 8, y1: y(f.time), y2: y(f.time), class: "st-fault", "data-testid": "st-fault" }));
      out.push(svg("text", { x: LEFT - 8, y: y(f.time) - 3, class: "st-fault-label" }, f.label));
    }
    const notable = new Set(record.writes.map((w) => `${w.from}@${w.time}`));
    let hidden = 0;
    for (const m of record.msgs.values()) {
      if (!shown(m, notable, all)) {
        if (m.send >= t0 && m.send <= now) hidden += 1;
        continue;
      }
      if (m.send > t1 || (m.end ?? Math.max(m.arrival, now)) < t0 || m.send > now) continue;
      const x1 = X.get(m.from);
      const x2 = X.get(m.to);
      if (x1 === undefined || x2 === undefined) continue;
      const dropped = m.fate && m.fate !== "delivered";
      const flying = !m.fate;
      const endT = dropped ? m.end : flying ? now : m.end ?? m.arrival;
      const full = m.arrival - m.send;
      const f = full > 0 ? Math.min(1, (endT - m.send) / full) : dropped ? 0.3 : 1;
      const ex = x1 + (x2 - x1) * (dropped && full <= 0 ? 0.3 : f);
      const ey = dropped && full <= 0 ? y(m.send) + 6 : y(endT);
      const g = svg("g", { "data-msg": m.id, class: `st-msg ${family(m.kind)}${flying ? " flying" : ""}${m.id === this.lit ? " lit" : ""}`, "data-kind": m.kind, "data-testid": dropped ? "st-dropped" : "st-message" },
        svg("title", {}, `${m.kind}${m.value != null ? ` (${m.value})` : ""} ${m.from} → ${m.to}, sent ${fmt(m.send)}, ${dropped ? `dropped ${fmt(m.end)} (${m.fate})` : flying ? `arrives ${fmt(m.arrival)}` : `arrived ${fmt(m.end ?? m.arrival)}`}`),
        svg("line", { x1, y1: y(m.send), x2: ex, y2: ey }));
      if (!dropped && !flying) {
        const a = Math.atan2(ey - y(m.send), ex - x1);
        const h = (d) => `${(ex - 6 * Math.cos(a + d)).toFixed(1)} ${(ey - 6 * Math.sin(a + d)).toFixed(1)}`;
        g.append(svg("path", { d: `M${h(0.45)}L${ex.toFixed(1)} ${ey.toFixed(1)}L${h(-0.45)}` }));
      }
      if (dropped) g.append(svg("path", { d: `M${ex - 4} ${ey - 4}l8 8m0 -8l-8 8`, class: "st-drop" }));
      out.push(g);
    }
    const rx = X.get("resource");
    if (rx !== undefined) {
      for (const w of record.writes) {
        if (w.time < t0 || w.time > t1) continue;
        const wy = y(w.time);
        if (!w.accepted) {
          out.push(svg("g", { "data-testid": "st-rejected" }, svg("title", {}, `${w.from}'s write refused at ${fmt(w.time)}: presented ${w.presented}, required ${w.required}`),
            svg("path", { d: `M${rx - 6} ${wy - 6}l12 12m0 -12l-12 12`, class: "st-reject" }),
            svg("text", { x: rx + 9, y: wy + 4, class: "st-reject-label" }, `refused ${w.presented} < ${w.required}`)));
        } else {
          out.push(svg("g", { "data-testid": "st-stale" }, svg("title", {}, `${w.from}'s stale write accepted at ${fmt(w.time)}`),
            svg("path", { d: `M${rx} ${wy - 7}l7 12h-14z`, class: "st-stale" }),
            svg("text", { x: rx + 9, y: wy + 4, class: "st-reject-label" }, `stale ${w.presented ?? w.from} accepted`)));
        }
      }
    }
    if (hidden) out.push(svg("text", { x: LEFT - 8, y: H - 6, class: "st-note" }, `${hidden} routine messages (heartbeats, appends, writes) not drawn`));
    out.push(svg("line", { x1: LEFT - 10, x2: W - 8, y1: y(now), y2: y(now), class: "st-now" }));
    out.push(svg("text", { x: W - 8, y: Math.min(H - 4, y(now) + 14), class: "st-now-label", "text-anchor": "end" }, `now ${fmt(now)}`));
    this.root.setAttribute("viewBox", `0 0 ${W} ${H}`);
    this.root.setAttribute("width", W);
    this.root.setAttribute("height", H);
    this.root.setAttribute("aria-label", `Space-time diagram from ${fmt(t0)} to ${fmt(now)}: ${keys.join(", ")}; ${[...record.msgs.values()].filter((m) => m.send >= t0 && m.send <= now).length} messages`);
    this.root.replaceChildren(...out);
  }

  /** The diagram as a standalone SVG file's text. */
  standalone() {
    const copy = this.root.cloneNode(true);
    copy.setAttribute("xmlns", NS);
    copy.removeAttribute("class");
    return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
  }
}

function fmt(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}
