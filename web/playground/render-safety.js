// The safety panel: each invariant the chosen algorithm promises, green while it holds and
// red from the first violation (with its time), then the run's metrics. The simulator does
// every check and says what is promised (`snapshot.promised`, less "split-brain" once a
// fault broke the lease premise); this panel only names the invariants and shows verdicts.
import { fmtMs } from "./render-cluster.js";
import { html, setAttrs, setText } from "./svg.js";

export const NAMES = {
  "election-safety": "At most one leader per term",
  "term-monotonic": "Terms never decrease",
  "log-matching": "Logs match",
  "leader-completeness": "Leader completeness",
  "single-valid-holder": "One valid lease holder (store clock)",
  "token-monotonic": "Store tokens strictly increase",
  "resource-token-monotonic": "Resource token never decreases",
  "token-per-session": "No two sessions share a token",
  "stale-write-accepted": "No stale write accepted",
  "split-brain": "Never two leaders at once (no pauses, drift in bound)",
  liveness: "A leader after faults heal",
};

/** A metric in ms whichever unit the package reports (`x_ms`, or `x_us` in microseconds). */
export function metricMs(m, name) {
  if (m[`${name}_ms`] != null) return Number(m[`${name}_ms`]);
  if (m[`${name}_us`] != null) return Number(m[`${name}_us`]) / 1000;
  return 0;
}

export class SafetyView {
  constructor(root) {
    this.root = root;
    setAttrs(root, { "data-testid": "safety" });
    this.algorithm = null;
    this.promised = null;
  }

  build(algorithm, promised) {
    this.algorithm = algorithm;
    this.promised = promised.join(",");
    this.promisedList = promised.slice();
    /** The rows by invariant, `{li, mark, when}`, and the metrics' cells by test id: found once, not per frame. */
    this.rows = new Map();
    this.violationCount = -1;
    const rows = promised.map((k) => this.row(k));
    this.extra = html("li", { class: "extra", "data-testid": "not-promised", hidden: true });
    this.list = html("ul", { class: "invariants" }, ...rows, this.extra);
    const metric = (id, label) => {
      const dd = html("dd", { "data-testid": id });
      return [html("dt", { text: label }), dd];
    };
    this.metrics = html(
      "dl",
      { class: "metrics" },
      ...metric("leaders-now", algorithm === "bully" ? "Coordinators now" : "Leaders now"),
      ...metric("split-brain", "Split-brain total"),
      ...metric("leaderless", "Time without a leader"),
      ...metric("elections-total", "elections_total"),
      ...metric("leadership-lost-total", "leadership_lost_total"),
      ...(algorithm.startsWith("lease")
        ? [
            ...metric("fencing-token", "Current fencing token"),
            ...metric("stale-rejected", "Stale writes rejected"),
            ...metric("stale-accepted", "Stale writes accepted"),
            ...metric("writes", "Writes accepted / rejected"),
          ]
        : []),
    );
    this.root.replaceChildren(html("h2", { text: "Safety, live" }), this.list, this.metrics);
    this.cells = new Map([...this.metrics.querySelectorAll("dd[data-testid]")].map((dd) => [dd.dataset.testid, dd]));
  }

  row(kind) {
    const mark = html("span", { class: "mark", "aria-hidden": "true" });
    const when = html("span", { class: "when" });
    const li = html("li", { "data-testid": `inv-${kind}`, "data-ok": "true" }, mark, html("span", { class: "label", text: NAMES[kind] ?? kind }), when);
    this.rows.set(kind, { li, mark, when, v: undefined });
    return li;
  }

  /** Whether `promised` is the list the panel was built for (compared without a string per frame). */
  samePromised(promised) {
    const had = this.promisedList;
    if (!had || had.length !== promised.length) return false;
    for (let i = 0; i < had.length; i++) if (had[i] !== promised[i]) return false;
    return true;
  }

  render(snap) {
    const promised = snap.promised ?? [];
    if (snap.algorithm !== this.algorithm || !this.samePromised(promised)) this.build(snap.algorithm, promised);
    const violations = snap.violations ?? [];
    // Violations only grow within a run: the verdicts are redone only when their list changed.
    if (violations.length !== this.violationCount || violations[0] !== this.firstViolation) {
      this.violationCount = violations.length;
      this.firstViolation = violations[0];
      this.renderVerdicts(violations);
    }
    const m = snap.metrics;
    const set = (id, text) => {
      const el = this.cells.get(id);
      if (el) setText(el, text);
    };
    const bad = (id, on) => {
      const el = this.cells.get(id);
      if (el && el._bad !== on) el.setAttribute("data-bad", String((el._bad = on)));
    };
    const leaders = Number(m.leaders_now);
    set("leaders-now", leaders);
    bad("leaders-now", leaders >= 2);
    const split = metricMs(m, "split_brain");
    set("split-brain", fmtMs(split));
    bad("split-brain", split > 0);
    set("leaderless", fmtMs(metricMs(m, "leaderless")));
    set("elections-total", m.elections_total);
    set("leadership-lost-total", m.leadership_lost_total);
    if (this.cells.has("fencing-token")) {
      set("fencing-token", m.fencing_token == null ? "–" : m.fencing_token);
      set("stale-rejected", m.stale_writes_rejected);
      set("stale-accepted", m.stale_writes_accepted);
      bad("stale-accepted", Number(m.stale_writes_accepted) > 0);
      set("writes", `${m.writes_accepted} / ${m.writes_rejected}`);
    }
  }

  /** Each invariant's verdict from `violations` (the first of each kind), and those not promised. */
  renderVerdicts(violations) {
    const first = new Map();
    const unpromised = new Map();
    for (const v of violations) {
      const into = v.promised ? first : unpromised;
      if (!into.has(v.kind)) into.set(v.kind, v);
    }
    // A promised invariant this panel does not list yet (a newer simulator) still shows up.
    for (const kind of first.keys()) {
      if (!this.rows.has(kind)) this.extra.before(this.row(kind));
    }
    for (const [kind, row] of this.rows) {
      const v = first.get(kind);
      setAttrs(row.li, { "data-ok": v ? "false" : "true", title: v ? v.detail : "holds so far" });
      setText(row.mark, v ? "✗" : "✓");
      setText(row.when, v ? `broken at ${fmtMs(v.time_ms)}` : "holds");
    }
    const extra = [...unpromised.values()];
    this.extra.hidden = extra.length === 0;
    if (extra.length) setText(this.extra, `Not promised here: ${extra.map((v) => `${NAMES[v.kind] ?? v.kind} broken at ${fmtMs(v.time_ms)}`).join("; ")}`);
  }
}
