// Permalink: the whole scenario (algorithm, config, seed, faults so far) plus the moment to
// show, compressed into the URL hash. Opening the link replays the scenario to that moment.
//
// Hash format: `#s=<base64url(deflate(JSON))>&t=<ms>[&p=<preset id>]`.
import { deflateSync, inflateSync, strFromU8, strToU8 } from "fflate";

/** Encodes `{ scenario, timeMs, preset }` as a URL hash (with the leading `#`). */
export function encodeHash({ scenario, timeMs, preset }) {
  const packed = toBase64Url(deflateSync(strToU8(JSON.stringify(scenario)), { level: 9 }));
  const params = new URLSearchParams({ s: packed, t: String(Math.round(timeMs * 1000) / 1000) });
  if (preset) params.set("p", preset);
  return `#${params}`;
}

/**
 * Decodes a hash made by `encodeHash`. Returns `{ scenario, timeMs, preset }`, or null when the
 * hash holds no scenario. Throws a TypeError with code PAGE_BAD_PERMALINK when it is corrupt.
 */
export function decodeHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const packed = params.get("s");
  if (!packed) return null;
  let scenario;
  try {
    scenario = JSON.parse(strFromU8(inflateSync(fromBase64Url(packed))));
  } catch (err) {
    throw Object.assign(new TypeError(`the link's scenario cannot be read: ${err.message}`), {
      code: "PAGE_BAD_PERMALINK",
    });
  }
  const t = Number(params.get("t") ?? 0);
  return { scenario, timeMs: Number.isFinite(t) && t >= 0 ? t : 0, preset: params.get("p") ?? undefined };
}

function toBase64Url(bytes) {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}
