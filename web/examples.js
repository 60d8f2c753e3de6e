// Two playgrounds on one page; the body gets data-ready once both are live.
import "./playground/element.js";

await Promise.all([...document.querySelectorAll("tenure-playground")].map((el) => el.ready));
document.body.dataset.ready = "true";
