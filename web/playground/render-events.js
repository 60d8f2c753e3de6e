// The event log: the last events up to the cursor, in words, newest last; the event "Step"
// just applied is highlighted. Each line is a button that seeks to its time; a message's
// lines (sent, delivered, dropped) light it in the other views when hovered or focused.
import { html, setAttrs } from "./svg.js";

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

  /**
   * Draws the events of `record` (a History) at or before `now`; `stepSeq` is highlighted.
   * In place: when the lines shown move on (the usual case while playing), the lines that
   * scrolled off are removed and the new ones appended; the others are kept as they are
   * (only their "applied" mark is refreshed). Anything else (a seek, a fork) redraws the list.
   */
  render(record, now, stepSeq) {
    const log = record.log;
    // The log is in time order: find the last line at or before `now` from the end.
    let end = log.length;
    while (end > 0 && log[end - 1].time > now + 1e-6) end--;
    const shown = log.slice(Math.max(0, end - SHOWN), end);
    const lines = (this.lines ??= []);
    const first = shown.length ? lines.findIndex((l) => l.key === lineKey(shown[0])) : -1;
    const kept = first >= 0 && lines.slice(first).every((l, i) => i < shown.length && l.key === lineKey(shown[i])) ? lines.length - first : -1;
    if (kept >= 0) {
      for (const l of lines.splice(0, first)) l.li.remove();
      this.empty?.remove();
      this.empty = null;
    } else {
      this.list.replaceChildren();
      lines.length = 0;
      this.empty = null;
    }
    for (const e of shown.slice(Math.max(0, kept))) {
      const li = this.line(e);
      this.list.append(li);
      lines.push({ key: lineKey(e), seq: e.seq, li, button: li.firstChild });
    }
    for (const l of lines) {
      const applied = l.seq === stepSeq;
      l.button.classList.toggle("applied", applied);
      setAttrs(l.button, { "aria-current": applied ? "step" : undefined });
    }
    if (!shown.length && !this.empty) this.list.append((this.empty = html("li", { class: "empty", text: "Nothing yet." })));
  }

  /** One line: a button that seeks to the event's time and lights its message. */
  line(e) {
    const b = html("button", {
      type: "button", class: `event ${e.event}`, "data-seq": e.seq, "data-time": e.time, "data-testid": "event",
      title: "Seek to this event", "data-msg": e.id, onclick: () => this.handlers.onSeek?.(e.time),
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
  }
}

/** What names a line: its event's number, time and words (a fork may reuse a number). */
function lineKey(e) {
  return `${e.seq}|${e.time}|${e.text}`;
}

function fmt(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(3)} s` : `${ms.toFixed(1)} ms`;
}

