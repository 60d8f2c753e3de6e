// compare.html: the playground's compare mode, full page.
import "./playground/element.js";

const el = document.querySelector("tenure-playground");
await el.ready;
document.body.dataset.ready = "true";
