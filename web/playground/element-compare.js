// <tenure-playground compare="raft,bully,lease-fencing" preset="partition">: the element in
// compare mode (compare.js). `compare` lists 2 to 4 algorithm choices (lease-fencing,
// lease-unfenced, raft, raft-pv-cq, bully); `preset` names a comparison (partition,
// gc-pause, clock-drift, leader-crash) whose panes the list replaces; `use-hash` opens a
// comparison permalink (#c=...) and takes the shortcut keys (space, ".", ","); `link-base`,
// `autoplay` ("false" is off), `height` (each pane's cluster, clamped to 150-2,400 px and said
// in the element, as in single mode) and `wasm` as in single mode. The element's `compare`
// property is the CompareMode (its API: play, pause, step, seek, inject, outcomes, permalink...).
import { autoplayAsked, heightOf } from "./attributes.js";
import { CompareMode, parseCompareList, specOf } from "./compare.js";
import { comparePresetById, COMPARE_PRESETS } from "./compare-presets.js";
import { loadWasm } from "./model.js";
import { html } from "./svg.js";
import css from "./playground.css?inline";
import compareCss from "./compare.css?inline";

const PREFIX = "<tenure-playground compare>";

export function mountCompare(el) {
  if (el.compare) return;
  const root = el.shadowRoot;
  root.replaceChildren(html("style", { text: css }), html("style", { text: compareCss }));
  const errorEl = html("p", { class: "error", role: "alert", "data-testid": "error", hidden: true });
  const heightNote = html("p", { class: "error", role: "alert", "data-testid": "height-note", hidden: true });
  root.append(heightNote, errorEl);
  // Whether a link or an attribute was refused: the comparison shown instead is not played.
  let refused = false;
  const showError = (msg) => {
    errorEl.hidden = !msg;
    errorEl.textContent = msg ?? "";
    if (msg) console.warn(`${PREFIX} ${msg}`);
    refused ||= !!msg;
  };
  const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)").matches;
  const linkBase = el.getAttribute("link-base") ?? (el.hasAttribute("use-hash") ? undefined : new URL("./compare.html", location.href).href);
  const mode = new CompareMode(root, { linkBase, useHash: el.hasAttribute("use-hash"), reducedMotion });
  el.compare = mode;
  // The `height` attribute sets every pane's cluster view, as it sets the single playground's:
  // clamped to 150-2,400 px, and a value out of range or not a length said in the element and
  // the console (attributes.js). Panes come and go, so it is a property of their container.
  el.applyCompareHeight = (value) => {
    const { css, note } = value ? heightOf(value, innerWidth, innerHeight) : { css: "" };
    if (note) console.warn(`${PREFIX} ${note}`);
    heightNote.hidden = !note;
    heightNote.textContent = note ?? "";
    mode.container.style.setProperty("--pane-cluster-height", css || null);
    mode.container.classList.toggle("fixed-height", !!css);
  };
  el.applyCompareHeight(el.getAttribute("height"));
  el.ready = loadWasm(el.getAttribute("wasm") || undefined).then(() => {
    let opened = false;
    if (el.hasAttribute("use-hash") && location.hash.includes("c=")) {
      try {
        opened = mode.openHash(location.hash);
      } catch (err) {
        showError(`${err.message}. Showing the default comparison instead.`);
      }
    }
    if (!opened) {
      const list = el.getAttribute("compare");
      const parsed = list ? parseCompareList(list) : { panes: undefined };
      if (parsed.error) showError(`${parsed.error}. Showing the preset's panes instead.`);
      const preset = el.getAttribute("preset");
      if (preset && !comparePresetById(preset)) showError(`there is no comparison named "${preset}"; they are ${COMPARE_PRESETS.map((p) => p.id).join(", ")}`);
      const id = comparePresetById(preset) ? preset : parsed.panes ? null : "partition";
      mode.load(specOf(id, parsed.panes));
    }
    el.dataset.ready = "true";
    if (autoplayAsked(el, (text) => console.warn(`${PREFIX} ${text}`)) && !refused && !reducedMotion) mode.play();
    return el;
  });
  el.ready.catch((err) => showError(err.message));
  if (el.hasAttribute("use-hash")) {
    document.addEventListener("keydown", (e) => {
      const t = e.composedPath?.()[0] ?? e.target;
      const tag = t?.tagName?.toUpperCase();
      if (e.ctrlKey || e.metaKey || e.altKey || tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
      if (e.key === "Escape") return mode.menu.close();
      if (e.key === " " && (tag === "BUTTON" || t?.getAttribute?.("tabindex") != null)) return;
      const act = { " ": () => mode.toggle(), ".": () => mode.step(), ",": () => (mode.pause(), mode.seek(mode.now - 100)) }[e.key];
      if (!act) return;
      e.preventDefault();
      act();
    });
  }
}
