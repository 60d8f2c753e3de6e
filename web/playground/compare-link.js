// The comparison's permalink: its spec (panes, world, preset, the faults the user added) and
// the moment to show, compressed into the URL hash as the single playground's link is.
//
// Hash format: `#c=<base64url(deflate(JSON))>&t=<ms>`.
import { deflateSync, inflateSync, strFromU8, strToU8 } from "fflate";

export function encodeCompareHash(spec, timeMs) {
  const bytes = deflateSync(strToU8(JSON.stringify(spec)), { level: 9 });
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  const packed = btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `#${new URLSearchParams({ c: packed, t: String(Math.round(timeMs * 1000) / 1000) })}`;
}

/**
 * `{ spec, timeMs }` from a hash made by `encodeCompareHash`, null when it holds none.
 * Throws a TypeError with code PAGE_BAD_PERMALINK when it is corrupt.
 */
export function decodeCompareHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const packed = params.get("c");
  if (!packed) return null;
  let spec;
  try {
    const bin = atob(packed.replace(/-/g, "+").replace(/_/g, "/"));
    spec = JSON.parse(strFromU8(inflateSync(Uint8Array.from(bin, (c) => c.charCodeAt(0)))));
  } catch (err) {
    throw Object.assign(new TypeError(`the comparison link cannot be read (it may be cut short): ${String(err.message).replace(/\.+$/, "")}`), { code: "PAGE_BAD_PERMALINK" });
  }
  if (!spec || !Array.isArray(spec.panes)) throw Object.assign(new TypeError("the comparison link names no panes"), { code: "PAGE_BAD_PERMALINK" });
  if (spec.panes.length < 2 || spec.panes.length > 4) {
    throw Object.assign(new RangeError(`a comparison takes 2 to 4 panes; this link has ${spec.panes.length}`), { code: "PAGE_BAD_PERMALINK" });
  }
  const t = Number(params.get("t") ?? 0);
  return { spec, timeMs: Number.isFinite(t) && t >= 0 ? t : 0 };
}
