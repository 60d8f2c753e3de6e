// embed.html?preset=ID&controls=minimal&autoplay&height=360px (or a permalink #s=... hash):
// only the cluster and a minimal bar, for iframes in docs.
import "./playground/element.js";

const q = new URLSearchParams(location.search);
const el = document.createElement("tenure-playground");
el.setAttribute("controls", q.get("controls") ?? "minimal");
for (const key of ["preset", "scenario", "height", "link-base"]) if (q.has(key)) el.setAttribute(key, q.get(key));
if (q.has("autoplay")) el.setAttribute("autoplay", "");
if (location.hash.includes("s=")) el.setAttribute("use-hash", "");
if (!el.hasAttribute("link-base")) el.setAttribute("link-base", new URL("./index.html", location.href).href);
document.body.append(el);
await el.ready;
document.body.dataset.ready = "true";
