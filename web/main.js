// The playground page: the full <tenure-playground> (its scenario in the URL hash) and the
// fenced resource by hand. The body gets data-ready once both are live.
import "./playground/element.js";

const playground = document.querySelector("tenure-playground");
const [, pg] = await Promise.all([import("./fenced-demo.js"), customElements.whenDefined("tenure-playground").then(() => playground.ready)]);
document.body.dataset.ready = pg ? "true" : "false";
