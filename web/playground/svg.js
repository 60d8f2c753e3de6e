// Tiny DOM helpers for SVG and HTML: create an element with attributes, and keep a group's
// children in step with a keyed list (so a frame updates attributes instead of rebuilding).

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element `tag` with `attrs` and optional children or text. */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  for (const c of children) el.append(c);
  return el;
}

/** An HTML element `tag` with `attrs` (`text` sets textContent) and children. */
export function html(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) el.append(c);
  return el;
}

/** Sets attributes, skipping unchanged values; undefined/null removes one. */
export function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) {
      if (el.hasAttribute(k)) el.removeAttribute(k);
      continue;
    }
    const s = String(v);
    if (el.getAttribute(k) !== s) el.setAttribute(k, s);
  }
}

/** Sets text content only when it changed. */
export function setText(el, text) {
  const s = String(text);
  if (el.textContent !== s) el.textContent = s;
}

/**
 * Makes `group`'s children match `items`: `key(item)` names each; `create(item)` builds a
 * missing one; `update(el, item)` refreshes each. Elements whose key vanished are removed.
 */
export function syncKeyed(group, items, key, create, update) {
  const cache = (group._keyed ??= new Map());
  const seen = new Set();
  for (const item of items) {
    const k = key(item);
    seen.add(k);
    let el = cache.get(k);
    if (!el) {
      el = create(item);
      cache.set(k, el);
      group.append(el);
    }
    update(el, item);
  }
  for (const [k, el] of cache) {
    if (!seen.has(k)) {
      el.remove();
      cache.delete(k);
    }
  }
}

/** An SVG arc path of `fraction` (0..1) of a circle of radius r at (cx, cy), clockwise from 12. */
export function arcPath(cx, cy, r, fraction) {
  const f = Math.max(0, Math.min(0.9999, fraction));
  if (f <= 0) return "";
  const a = f * 2 * Math.PI;
  const x = cx + r * Math.sin(a);
  const y = cy - r * Math.cos(a);
  return `M ${cx} ${cy - r} A ${r} ${r} 0 ${f > 0.5 ? 1 : 0} 1 ${x.toFixed(2)} ${y.toFixed(2)}`;
}
