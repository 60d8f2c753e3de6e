// A small popup menu built from an actions table ([label, handler, { testid, disabled }]),
// positioned at a click inside a container. One menu per playground.
import { html } from "./svg.js";

export class Menu {
  /** @param {HTMLElement} container positioned element the menu floats in */
  constructor(container) {
    this.container = container;
    this.el = html("div", { class: "menu", role: "menu", "data-testid": "menu", hidden: true });
    container.append(this.el);
    this.el.addEventListener("keydown", (e) => {
      if (e.key === "Escape") this.close();
      e.stopPropagation();
    });
  }

  /**
   * Opens at the event's position with a `title`, optional number `fields`
   * ([key, label, value, onChange]) and the `rows` table (rebuilt by `rows()` after a field
   * changes, so labels show the values).
   */
  open(event, title, rows, fields = []) {
    const box = this.container.getBoundingClientRect();
    const build = () => {
      const items = rows().map(([label, handler, opts = {}]) =>
        html("button", {
          type: "button", role: "menuitem", "data-testid": opts.testid, disabled: opts.disabled,
          text: label,
          onclick: () => {
            this.close();
            handler();
          },
        }),
      );
      const inputs = fields.map(([key, label, value, onChange]) =>
        html("label", { class: "field" }, label, html("input", {
          type: "number", value, "data-testid": `menu-${key}`,
          onchange: (e) => {
            onChange(Number(e.target.value));
            build();
          },
        })),
      );
      this.el.replaceChildren(html("div", { class: "menu-title", text: title }), ...inputs, ...items);
    };
    build();
    this.el.hidden = false;
    const x = Math.min(Math.max(0, (event.clientX ?? box.left + box.width / 2) - box.left + 8), Math.max(0, box.width - 230));
    const y = Math.min(Math.max(0, (event.clientY ?? box.top + box.height / 2) - box.top + 8), Math.max(0, box.height - this.el.offsetHeight - 4));
    this.el.style.left = `${x}px`;
    this.el.style.top = `${y}px`;
    this.el.querySelector("button:not([disabled])")?.focus({ preventScroll: true });
  }

  close() {
    this.el.hidden = true;
  }

  get isOpen() {
    return !this.el.hidden;
  }
}
