// The playground page: the full <tenure-playground> (its scenario in the URL hash) and the
// fenced resource by hand. The body gets data-ready once both are live.
import "./playground/element.js";
import { Simulation } from "tenure/sim";

const playground = document.querySelector("tenure-playground");
const [, pg] = await Promise.all([import("./fenced-demo.js"), customElements.whenDefined("tenure-playground").then(() => playground.ready)]);
// "Can this break?" (page-only: the element bundle does not carry it or its worker).
if (pg) {
  // Its property list comes from the Simulation already loaded; the search module
  // (tenure/search) loads in its worker when a search starts.
  const { mountBreakPanel } = await import("./playground/break-panel.js");
  window.breakPanel = mountBreakPanel(document.getElementById("break"), playground, { promises: (a) => Simulation.promises(a) });
}
document.body.dataset.ready = pg ? "true" : "false";
