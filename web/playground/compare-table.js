// The outcome table under the comparison's panes: one column per pane, one row per outcome
// the sources compare (time without a leader, split brain, stale writes, elections,
// messages, the first promised invariant broken), read live from each pane's simulator
// metrics and violations. A row whose values differ is marked, and in the safety and
// availability rows its worst cells carry a visible tag, not colour alone.
import { fmtMs } from "./render-cluster.js";
import { NAMES } from "./render-safety.js";
import { html, setAttrs, setText } from "./svg.js";

const ms = (v) => ({ value: v, text: fmtMs(v) });
const n = (v) => ({ value: v, text: String(v) });
const NA = { value: null, text: "n/a" };

/**
 * [id, label, (snap, pane) => { value, text, neutral? }]: higher values are worse, except in
 * `neutral` cells (counts that are neither good nor bad by themselves).
 */
export const OUTCOMES = [
  ["leaderless", "Time without a leader", (s) => ms(Number(s.metrics.leaderless_ms))],
  ["failover", "Last failover (crash to new leader)", (s) => {
    const f = s.metrics.failover_ms ?? [];
    return f.length ? ms(Number(f.at(-1))) : { value: null, text: "none" };
  }],
  ["split-brain", "Split-brain window (total)", (s) => ms(Number(s.metrics.split_brain_ms))],
  ["worst-split-brain", "Longest split brain", (s) => ms(Number(s.metrics.worst_split_brain_ms))],
  ["stale-accepted", "Stale writes accepted", (s) => (s.resource == null ? NA : n(Number(s.metrics.stale_writes_accepted)))],
  ["stale-rejected", "Stale writes rejected", (s) => (s.resource == null ? NA : { ...n(Number(s.metrics.stale_writes_rejected)), neutral: true })],
  ["elections", "Elections (leaderships won)", (s) => n(Number(s.metrics.elections_total))],
  ["messages", "Messages sent", (s) => ({ ...n(Number(s.metrics.messages_sent)), neutral: true })],
  ["broke-first", "First promised invariant broken", (s) => {
    const v = s.violations.find((x) => x.promised);
    return v ? { value: Number(v.time_ms) + 1, text: `${NAMES[v.kind] ?? v.kind}, at ${fmtMs(Number(v.time_ms))}` } : { value: 0, text: "none" };
  }],
  ["skipped", "Faults skipped", (s, pane) => ({ value: pane.skipped.length, text: pane.skipped.length ? pane.skipped.map((k) => k.label).join("; ") : "none", neutral: true })],
];

export class OutcomeTable {
  constructor(root) {
    this.root = root;
    setAttrs(root, { class: "outcomes", "data-testid": "outcomes", tabindex: 0, role: "region", "aria-label": "outcomes (scrolls sideways on a narrow screen)" });
    this.key = "";
  }

  /** Rebuilds the table's frame when the panes change. */
  build(panes) {
    this.key = panes.map((p) => p.label).join("|");
    const head = html("tr", {}, html("th", { scope: "col", text: "Outcome" }), ...panes.map((p, i) => html("th", { scope: "col", "data-testid": `outcome-head-${i}`, text: p.label })));
    this.cells = new Map();
    const rows = OUTCOMES.map(([id, label]) => {
      const cells = panes.map((_, i) => html("td", { "data-testid": `outcome-${id}-${i}` }));
      this.cells.set(id, cells);
      return html("tr", { "data-row": id }, html("th", { scope: "row", text: label }), ...cells);
    });
    this.root.replaceChildren(html("table", {},
      html("caption", { text: "Outcomes so far, measured by each pane's simulator. A bar at the left marks a row whose values differ; ▲ marks the worst value of a safety or availability row." }),
      html("thead", {}, head), html("tbody", {}, ...rows)));
  }

  /** Fills the cells from each pane's snapshot. */
  render(panes, snaps) {
    if (panes.map((p) => p.label).join("|") !== this.key) this.build(panes);
    for (const [id, , get] of OUTCOMES) {
      const vals = snaps.map((s, i) => get(s, panes[i]));
      const nums = vals.map((v) => v.value).filter((v) => v != null);
      const differs = nums.length > 1 && new Set(nums).size > 1;
      const worst = Math.max(...nums);
      const row = this.cells.get(id);
      row[0].parentElement.dataset.differs = String(differs);
      vals.forEach((v, i) => {
        const cell = row[i];
        const bad = differs && !v.neutral && v.value === worst && v.value != null;
        const text = bad ? `▲ ${v.text}` : v.text;
        if (cell.textContent !== text) setText(cell, text);
        cell.dataset.worst = String(bad);
        cell.dataset.value = v.value == null ? "" : String(v.value);
      });
    }
  }
}
