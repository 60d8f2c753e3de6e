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
    /** Lines that scrolled off, kept for the next new ones (at speed every line is new each draw). */
    this.pool = [];
    this.bindLines();
  }

  /**
   * One set of listeners on the list for every line (lines are reused for other events): a
   * click seeks to the line's time; hovering or focusing a message's line lights it.
   */
  bindLines() {
    const lineOf = (e) => e.target.closest?.("button.event");
    const msg = (b) => b._event?.id;
    this.list.addEventListener("click", (e) => {
      const b = lineOf(e);
      if (b?._event) this.handlers.onSeek?.(b._event.time);
    });
    const hover = (on) => (e) => {
      const b = lineOf(e);
      if (!b || msg(b) == null || (e.relatedTarget instanceof Node && b.contains(e.relatedTarget))) return;
      this.handlers.onMessageHover?.(on ? msg(b) : null);
    };
    this.list.addEventListener("pointerover", hover(true));
    this.list.addEventListener("pointerout", hover(false));
    this.list.addEventListener("focusin", hover(true));
    this.list.addEventListener("focusout", hover(false));
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
      for (const l of lines.splice(0, first)) this.retire(l);
      this.empty?.remove();
      this.empty = null;
    } else {
      for (const l of lines) this.retire(l);
      this.list.replaceChildren();
      lines.length = 0;
      this.empty = null;
    }
    for (const e of shown.slice(Math.max(0, kept))) {
      const l = this.pool.pop() ?? this.line();
      this.fill(l, e);
      this.list.append(l.li);
      lines.push(l);
    }
    for (const l of lines) {
      const applied = l.seq === stepSeq;
      l.button.classList.toggle("applied", applied);
      setAttrs(l.button, { "aria-current": applied ? "step" : undefined });
    }
    if (!shown.length && !this.empty) this.list.append((this.empty = html("li", { class: "empty", text: "Nothing yet." })));
  }

  /** An empty line: a button that seeks to its event's time and lights its message (`fill`). */
  line() {
    const time = html("span", { class: "t" });
    const text = html("span", {});
    const button = html("button", { type: "button", class: "event", "data-seq": "", "data-time": "", "data-testid": "event", title: "Seek to this event" }, time, " ", text);
    return { key: "", seq: null, li: html("li", {}, button), button, time, text };
  }

  /**
   * Makes line `l` show event `e`. Its attributes end up in the order a new line's would have
   * (the optional ones, `data-msg` then `aria-current`, removed first and set again last).
   */
  fill(l, e) {
    const b = l.button;
    l.key = lineKey(e);
    l.seq = e.seq;
    b._event = e;
    b.removeAttribute("data-msg");
    b.removeAttribute("aria-current");
    b.className = e.id != null && e.id === this.lit ? `event ${e.event} lit` : `event ${e.event}`;
    b.setAttribute("data-seq", e.seq);
    b.setAttribute("data-time", e.time);
    if (e.id != null) b.setAttribute("data-msg", e.id);
    l.time.textContent = fmt(e.time);
    l.text.textContent = e.text;
  }

  /** Takes line `l` off the list, into the pool (bounded: a list never holds more than SHOWN). */
  retire(l) {
    l.li.remove();
    if (this.pool.length < SHOWN) this.pool.push(l);
  }
}

/** What names a line: its event's number, time and words (a fork may reuse a number). */
function lineKey(e) {
  return `${e.seq}|${e.time}|${e.text}`;
}

function fmt(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(3)} s` : `${ms.toFixed(1)} ms`;
}

