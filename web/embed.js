// embed.html?preset=ID&controls=minimal&autoplay&height=360px (or a permalink #s=... hash):
// only the cluster and a minimal bar, for iframes in docs.
// embed.html?compare=raft,bully,lease-fencing&preset=partition (or a #c=... hash): compare
// mode, the panes in lock-step and the outcome table.
//
// The page posts its height to the parent whenever it changes, so the host can size the
// iframe to fit (the snippet in README.md):
//   { type: "tenure-playground:height", height: <CSS px> }
import "./playground/element.js";

const PARAMS = ["preset", "scenario", "controls", "autoplay", "height", "link-base", "compare"];
const q = new URLSearchParams(location.search);
const unknown = [...q.keys()].filter((k) => !PARAMS.includes(k));
if (unknown.length) console.warn(`embed.html: unknown parameter${unknown.length > 1 ? "s" : ""} ${unknown.map((k) => `"${k}"`).join(", ")} ignored; it takes ${PARAMS.join(", ")}.`);
const el = document.createElement("tenure-playground");
const compare = q.has("compare") || location.hash.includes("c=");
if (compare) el.setAttribute("compare", q.get("compare") ?? "");
el.setAttribute("controls", q.get("controls") ?? "minimal");
for (const key of ["preset", "scenario", "height", "link-base"]) if (q.has(key)) el.setAttribute(key, q.get(key));
// A fixed cluster height by default, so the page's height does not depend on the iframe's
// (which the host may set from the height this page posts).
if (!q.has("height") && !compare) el.setAttribute("height", "300px");
// The value goes through: `?autoplay=false` is off, as on the element.
if (q.has("autoplay")) el.setAttribute("autoplay", q.get("autoplay"));
if (location.hash.includes("s=") || location.hash.includes("c=")) el.setAttribute("use-hash", "");
if (!el.hasAttribute("link-base")) el.setAttribute("link-base", new URL(compare ? "./compare.html" : "./index.html", location.href).href);
document.body.append(el);

if (window.parent !== window) {
  let last = 0;
  const post = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: "tenure-playground:height", height }, "*");
  };
  new ResizeObserver(post).observe(document.documentElement);
}
await el.ready;
document.body.dataset.ready = "true";
