// The playground page: the full <tenure-playground> (its scenario in the URL hash) and the
// fenced resource by hand. The body gets data-ready once both are live.
import "./playground/element.js";

const playground = document.querySelector("tenure-playground");
const [, pg] = await Promise.all([import("./fenced-demo.js"), customElements.whenDefined("tenure-playground").then(() => playground.ready)]);
// "Can this break?" (page-only: the element bundle does not carry it or its worker).
if (pg) {
  const [{ mountBreakPanel }, { Search }] = await Promise.all([import("./playground/break-panel.js"), import("tenure/sim")]);
  window.breakPanel = mountBreakPanel(document.getElementById("break"), playground, { promises: (a) => Search.promises(a) });
}
document.body.dataset.ready = pg ? "true" : "false";
