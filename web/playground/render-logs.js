// What the processes hold: the Raft log of every node (index, term, committed or not, and
// the commit index), and the fenced resource's recent history of writes. Read from the
// snapshot and the History only.
import { procKey } from "./procs.js";
import { html } from "./svg.js";

const ENTRIES = 12;

/** The Raft log view: one row per node, the newest entries aligned by index. */
export class RaftLogView {
  /** @param {HTMLElement} root @param {{onPropose?:Function}} handlers */
  constructor(root, handlers = {}) {
    this.root = root;
    this.propose = html("button", { type: "button", "data-testid": "propose", text: "Propose a command", onclick: () => handlers.onPropose?.(), title: "A client asks the leader to append a command (P)", "aria-keyshortcuts": "P" });
    this.table = html("table", { class: "raft-log", "data-testid": "raft-log" });
    root.append(html("div", { class: "log-head" }, html("h2", { text: "Logs" }), this.propose,
      html("span", { class: "hint", text: "filled: committed · outlined: not yet · the number is the term" })), this.table);
    this.key = "";
  }

  /** Draws `snap`'s Raft logs. */
  render(snap) {
    const nodes = snap.nodes.filter((n) => n.log);
    const last = nodes.reduce((m, n) => Math.max(m, Number(n.log_len ?? 0)), 0);
    const first = Math.max(1, last - ENTRIES + 1);
    const key = nodes.map((n) => `${n.id}:${n.log_len}:${n.commit}:${n.role}:${n.status}:${n.acting_leader}:${n.log.at(-1)?.term}`).join("|");
    if (key === this.key) return;
    this.key = key;
    const head = html("tr", {}, html("th", { scope: "col", text: "node" }), html("th", { scope: "col", text: "commit" }),
      ...Array.from({ length: Math.min(ENTRIES, last) }, (_, i) => html("th", { scope: "col", class: "idx", text: String(first + i) })));
    const rows = nodes.map((n) => {
      const k = procKey(n.id);
      const commit = Number(n.commit ?? 0);
      const byIndex = new Map(n.log.map((e) => [Number(e.index), e]));
      const cells = Array.from({ length: Math.min(ENTRIES, last) }, (_, i) => {
        const idx = first + i;
        const e = byIndex.get(idx);
        if (!e) return html("td", { class: "none" });
        const committed = idx <= commit;
        const what = e.command == null ? "no-op" : `command ${e.command}`;
        return html("td", {
          class: `entry${committed ? " committed" : ""} t${Number(e.term) % 6}`, "data-index": idx, "data-command": e.command == null ? "" : String(e.command),
          "data-committed": String(committed), title: `index ${idx}, term ${e.term}, ${what}${committed ? ", committed" : ", not committed yet"}`,
        }, html("span", { text: String(e.term) }), e.command == null ? "" : html("small", { text: `·${String(e.command).slice(-3)}` }));
      });
      const lead = n.acting_leader;
      return html("tr", { "data-testid": `log-${k}`, class: `${lead ? "leader" : ""} status-${n.status}` },
        html("th", { scope: "row", text: `${k}${lead ? " ★" : ""}` }), html("td", { class: "commit", "data-testid": `commit-${k}`, text: String(commit) }), ...cells);
    });
    this.table.replaceChildren(html("thead", {}, head), html("tbody", {}, ...rows));
    this.propose.disabled = !nodes.some((n) => n.acting_leader);
  }
}

/** The resource's history: its last judged writes, newest first, and what it holds now. */
export class ResourceLogView {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.list = html("ul", { class: "res-log", "data-testid": "resource-log" });
    root.append(html("h2", { text: "Resource history" }), this.list);
    this.key = "";
  }

  /** Draws the writes of `record` (a History) judged at or before `now`. */
  render(record, now) {
    const upTo = record.judged.filter((w) => w.time <= now + 1e-6);
    // The refusals and stale acceptances stay listed while the routine writes scroll past.
    const notable = upTo.filter((w) => !w.accepted || w.stale).slice(-3);
    const recent = upTo.slice(-3);
    const shown = [...new Map([...notable, ...recent].sort((a, b) => a.n - b.n).map((w) => [w.n, w])).values()].reverse();
    const key = shown.map((w) => w.n).join(",");
    if (key === this.key) return;
    this.key = key;
    this.list.replaceChildren(...shown.map((w) => html("li", { class: !w.accepted ? "rejected" : w.stale ? "stale" : "ok", "data-testid": "resource-entry" },
      !w.accepted ? `✕ ${w.from}'s write with token ${w.presented} refused (required ${w.required})`
        : w.stale ? `⚠ write ${w.n} by ${w.from} with stale token ${w.token} accepted (had seen ${w.required})`
          : `write ${w.n} by ${w.from} with token ${w.token}`)));
    if (!shown.length) this.list.append(html("li", { class: "empty", text: "No write yet." }));
  }
}
