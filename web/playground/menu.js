// The fault popup: a title, optional number fields and a menu of actions, built from an
// actions table ([label, handler, { testid, disabled }]). One per playground.
//
// Opened beside what it acts on (never over it), with focus on the first action; the key that
// opened it activates nothing. Arrow keys, Home and End move among the actions; Tab reaches
// the fields; Escape closes it and gives focus back to the node or link that opened it.
import { parseField } from "./fields.js";
import { html } from "./svg.js";

const GAP = 10;

export class Menu {
  /** @param {HTMLElement} container positioned element the menu floats in */
  constructor(container) {
    this.container = container;
    this.el = html("div", { class: "menu", role: "dialog", "aria-modal": "false", "data-testid": "menu", hidden: true });
    container.append(this.el);
    this.el.addEventListener("keydown", (e) => this.onKey(e));
    // The keystroke that opened the menu (Enter or Space on a node) must not also activate
    // the item that now has focus: swallow its keyup/keypress until a fresh keydown.
    this.el.addEventListener("keyup", (e) => {
      if (this.swallow && e.key === this.swallow) e.preventDefault();
      this.swallow = null;
    });
  }

  /**
   * Opens beside `anchor` (an Element, or a pointer event for a point) with a `title`,
   * optional number `fields` ([key, label, value, onChange, { unit, min, max }]) and the `rows`
   * table (rebuilt by `rows()` after a field changes, so labels show the values). `invoker`
   * gets focus back when the menu closes; `key` is the key that opened it, if any; `body` an
   * element shown under the title (a message's fields).
   */
  open(anchor, title, rows, fields = [], { invoker, key, body } = {}) {
    this.invoker = invoker ?? (anchor instanceof Element ? anchor : null);
    this.swallow = key === "Enter" || key === " " ? key : null;
    const titleId = `menu-title-${Math.random().toString(36).slice(2, 8)}`;
    const build = (focusKey) => {
      const items = rows().map(([label, handler, opts = {}]) =>
        html("button", {
          type: "button", role: "menuitem", tabindex: -1, "data-testid": opts.testid, "aria-disabled": opts.disabled ? "true" : undefined,
          class: opts.disabled ? "disabled" : undefined, text: label,
          onclick: () => {
            if (opts.disabled) return;
            this.close();
            handler();
          },
        }),
      );
      const inputs = fields.map(([fkey, label, value, onChange, spec = {}]) => {
        const errId = `${titleId}-${fkey}-err`;
        const err = html("span", { class: "field-error", id: errId, "data-testid": `menu-${fkey}-error`, hidden: true });
        const input = html("input", {
          type: "text", inputmode: "decimal", value, "data-testid": `menu-${fkey}`, "aria-describedby": errId, "data-key": fkey,
          onchange: (e) => {
            const r = parseField(e.target.value, { label, min: 1, max: 3_600_000, unit: "ms", ...spec });
            if (r.error) {
              e.target.setAttribute("aria-invalid", "true");
              err.textContent = r.error;
              err.hidden = false;
              return;
            }
            onChange(r.value);
            build(fkey);
          },
        });
        return html("label", { class: "field" }, html("span", { text: label }), input, err);
      });
      this.list = html("div", { role: "menu", "aria-labelledby": titleId, class: "menu-items" }, ...items);
      this.el.replaceChildren(html("div", { class: "menu-title", id: titleId, text: title }), ...(body ? [body] : []), ...inputs, this.list);
      this.el.setAttribute("aria-labelledby", titleId);
      if (focusKey) this.el.querySelector(`input[data-key="${focusKey}"]`)?.focus({ preventScroll: true });
    };
    build();
    this.el.hidden = false;
    this.place(anchor);
    this.items()[0]?.focus({ preventScroll: true });
  }

  /** Puts the menu beside the anchor's box: right of it, else left, else below; inside the container. */
  place(anchor) {
    const box = this.container.getBoundingClientRect();
    let r;
    if (anchor instanceof Element) r = anchor.getBoundingClientRect();
    else {
      const x = anchor?.clientX ?? box.left + box.width / 2;
      const y = anchor?.clientY ?? box.top + box.height / 2;
      r = { left: x - 6, right: x + 6, top: y - 6, bottom: y + 6, width: 12, height: 12 };
    }
    const w = this.el.offsetWidth;
    const h = this.el.offsetHeight;
    const left = r.left - box.left;
    const right = r.right - box.left;
    let x;
    let y = Math.min(Math.max(2, r.top - box.top), Math.max(2, box.height - h - 2));
    if (right + GAP + w <= box.width) x = right + GAP;
    else if (left - GAP - w >= 0) x = left - GAP - w;
    else {
      // No room on either side: below the anchor, or above it.
      x = Math.min(Math.max(2, left), Math.max(2, box.width - w - 2));
      const below = r.bottom - box.top + GAP;
      y = below + h <= box.height ? below : Math.max(2, r.top - box.top - GAP - h);
    }
    this.el.style.left = `${Math.round(x)}px`;
    this.el.style.top = `${Math.round(y)}px`;
  }

  items() {
    return [...this.el.querySelectorAll("[role=menuitem]:not(.disabled)")];
  }

  onKey(e) {
    e.stopPropagation();
    if (e.key !== this.swallow) this.swallow = null;
    if (e.key === "Escape") {
      e.preventDefault();
      return this.close();
    }
    const items = this.items();
    const i = items.indexOf(e.composedPath()[0]);
    const move = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: items.length - 1 }[e.key];
    if (move !== undefined && items.length) {
      e.preventDefault();
      items[(move + items.length) % items.length].focus();
    } else if ((e.key === "Enter" || e.key === " ") && e.repeat) {
      e.preventDefault();
    }
  }

  /** Closes; focus goes back to what opened the menu if focus was inside it. */
  close() {
    if (this.el.hidden) return;
    const hadFocus = this.el.contains(this.el.getRootNode().activeElement);
    this.el.hidden = true;
    if (hadFocus && this.invoker?.isConnected) this.invoker.focus({ preventScroll: true });
  }

  get isOpen() {
    return !this.el.hidden;
  }
}
