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
 * Makes `group`'s children match `items`: `key(item)` names each (keys are distinct);
 * `create(item)` builds a missing one; `update(el, item)` refreshes each. Elements whose key
 * vanished are removed. The same keys as last time (every frame while playing) cost no
 * allocation: each key found, none created and as many as cached means none vanished.
 */
export function syncKeyed(group, items, key, create, update) {
  const cache = (group._keyed ??= new Map());
  let created = false;
  for (const item of items) {
    const k = key(item);
    let el = cache.get(k);
    if (!el) {
      el = create(item);
      cache.set(k, el);
      group.append(el);
      created = true;
    }
    update(el, item);
  }
  if (!created && cache.size === items.length) return;
  const seen = new Set();
  for (const item of items) seen.add(key(item));
  for (const [k, el] of cache) {
    if (!seen.has(k)) {
      el.remove();
      cache.delete(k);
    }
  }
}

/**
 * As {@link syncKeyed}, for lists that turn over every frame (messages in flight at speed):
 * an element whose key vanished is given to a new item by `assign(el, item)` instead of being
 * removed while another is created. The focused element is never handed on (focus stays
 * with what it named, and leaves with it). `keep` (optional) holds elements whose key
 * vanished, detached, for their key's return (a link cut again): it must be bounded by the
 * caller (cuts: one per pair of processes). Without `keep`, the elements left over when
 * fewer items come are detached into a pool (at most POOL_MAX per group) that the next new
 * items take from before creating any: the number in flight rises and falls from frame to
 * frame, and each element created costs a dozen DOM calls where one taken back costs one.
 */
export function syncRecycled(group, items, key, create, assign, update, keep = null) {
  const cache = group._keyed ?? new Map();
  // Two maps per group, swapped each call: the one filled last time is this call's cache.
  const next = group._keyedSpare ?? new Map();
  next.clear();
  const fresh = FRESH;
  fresh.length = 0;
  for (const item of items) {
    const k = key(item);
    const el = next.get(k) ?? cache.get(k);
    if (!el) {
      fresh.push([k, item]);
      continue;
    }
    cache.delete(k);
    next.set(k, el);
    update(el, item);
  }
  const active = fresh.length && cache.size ? group.getRootNode().activeElement : null;
  const spare = SPARE;
  spare.length = 0;
  for (const [k, el] of cache) {
    if (keep) {
      keep.set(k, el);
      el.remove();
    } else if (el === active || (active && el.contains(active))) el.remove();
    else spare.push(el);
  }
  const pool = (group._pool ??= []);
  for (const [k, item] of fresh) {
    let el = keep?.get(k);
    if (el) {
      keep.delete(k);
      group.append(el);
    } else if ((el = spare.pop())) assign(el, item);
    else if ((el = pool.pop())) {
      assign(el, item);
      group.append(el);
    } else group.append((el = create(item)));
    next.set(k, el);
    update(el, item);
  }
  for (const el of spare) {
    el.remove();
    if (pool.length < POOL_MAX) pool.push(el);
  }
  spare.length = 0;
  fresh.length = 0;
  cache.clear();
  group._keyedSpare = cache;
  group._keyed = next;
}

/** Detached elements syncRecycled keeps per group for the next new items. */
const POOL_MAX = 256;
/** syncRecycled's scratch lists, reused (it is not reentrant): `[key, item]` pairs and elements. */
const FRESH = [];
const SPARE = [];

/** An SVG arc path of `fraction` (0..1) of a circle of radius r at (cx, cy), clockwise from 12. */
export function arcPath(cx, cy, r, fraction) {
  const f = Math.max(0, Math.min(0.9999, fraction));
  if (f <= 0) return "";
  const a = f * 2 * Math.PI;
  const x = cx + r * Math.sin(a);
  const y = cy - r * Math.cos(a);
  return `M ${cx} ${cy - r} A ${r} ${r} 0 ${f > 0.5 ? 1 : 0} 1 ${x.toFixed(2)} ${y.toFixed(2)}`;
}
