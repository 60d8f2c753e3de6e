// compare.html: the playground's compare mode, full page.
// compare.html?compare=raft,lease-fencing&preset=gc-pause picks the panes and the comparison,
// as embed.html does; without them the page shows its default (three algorithms, a partition).
// The query is applied before the element module loads, so the element starts from it.
const PARAMS = ["compare", "preset"];
const q = new URLSearchParams(location.search);
const unknown = [...q.keys()].filter((k) => !PARAMS.includes(k));
if (unknown.length) console.warn(`compare.html: unknown parameter${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `"${k}"`).join(", ")} ignored; it takes ${PARAMS.join(", ")}.`);
const el = document.querySelector("tenure-playground");
for (const key of PARAMS) if (q.has(key)) el.setAttribute(key, q.get(key));
await import("./playground/element.js");
await el.ready;
document.body.dataset.ready = "true";
