// The playground page: the full <tenure-playground> (its scenario in the URL hash), "Can this
// break?" and the fenced resource by hand. The body gets data-ready once the playground and
// the fenced demo's form are live; the panels below the playground load their code when they
// come near the viewport (docs/bindings.md, "The page's first load").
import "./playground/element.js";
import { Simulation } from "tenure/sim";
import { whenNear } from "./when-near.js";

const playground = document.querySelector("tenure-playground");
const [, pg] = await Promise.all([import("./fenced-demo.js"), customElements.whenDefined("tenure-playground").then(() => playground.ready)]);
// "Can this break?" (page-only: the element bundle does not carry it or its worker), mounted
// when its section comes within 200 px of the viewport; body[data-break-ready] then.
if (pg) whenNear(document.getElementById("break"), mountBreak);
document.body.dataset.ready = pg ? "true" : "false";

let breakLoading;
function mountBreak() {
  breakLoading ??= import("./playground/break-panel.js").then(({ mountBreakPanel }) => {
    // Its property list comes from the Simulation already loaded; the search module
    // (tenure/search) loads in its worker when a search starts.
    window.breakPanel = mountBreakPanel(document.getElementById("break"), playground, { promises: (a) => Simulation.promises(a) });
    document.body.dataset.breakReady = "true";
  });
  return breakLoading;
}
