// The event log: the last events up to the cursor, in words, newest last; the event "Step"
// just applied is highlighted. Each line is a button that seeks to its time; a message's
// lines (sent, delivered, dropped) light it in the other views when hovered or focused.
import { html } from "./svg.js";

const SHOWN = 12;

export class EventLogView {
  /** @param {HTMLElement} root @param {{onSeek?:(ms:number)=>void, onMessageHover?:(id:string|null)=>void}} handlers */
  constructor(root, handlers = {}) {
    this.root = root;
    this.handlers = handlers;
    this.list = html("ol", { class: "events", "data-testid": "event-log" });
    root.append(html("h2", { text: "Event log" }), this.list);
    this.key = "";
  }

  /** Lights the lines of message `id` (hovered in another view), or none. */
  highlight(id) {
    this.lit = id;
    for (const b of this.list.querySelectorAll("button[data-msg]")) b.classList.toggle("lit", b.dataset.msg === id);
  }

  /** Draws the events of `record` (a History) at or before `now`; `stepSeq` is highlighted. */
  render(record, now, stepSeq) {
    const upTo = record.log.filter((e) => e.time <= now + 1e-6);
    const shown = upTo.slice(-SHOWN);
    const key = `${shown.map((e) => e.seq).join(",")}|${stepSeq}`;
    if (key === this.key) return;
    this.key = key;
    this.list.replaceChildren(...shown.map((e) => {
      const applied = e.seq === stepSeq;
      const b = html("button", {
        type: "button", class: `event ${e.event}${applied ? " applied" : ""}`, "data-seq": e.seq, "data-time": e.time, "data-testid": "event",
        "aria-current": applied ? "step" : undefined, title: "Seek to this event",
        "data-msg": e.id, onclick: () => this.handlers.onSeek?.(e.time),
      }, html("span", { class: "t", text: fmt(e.time) }), " ", html("span", { text: e.text }));
      if (e.id != null) {
        const on = () => this.handlers.onMessageHover?.(e.id);
        const off = () => this.handlers.onMessageHover?.(null);
        b.addEventListener("pointerenter", on);
        b.addEventListener("pointerleave", off);
        b.addEventListener("focus", on);
        b.addEventListener("blur", off);
        if (e.id === this.lit) b.classList.add("lit");
      }
      return html("li", {}, b);
    }));
    if (!shown.length) this.list.append(html("li", { class: "empty", text: "Nothing yet." }));
  }
}

function fmt(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(3)} s` : `${ms.toFixed(1)} ms`;
}

