// The element's attributes that hold a yes/no or a size, read as embedders write them
// (README.md, "Embed it in your docs"): `autoplay="false"` means off, and a height is kept
// within HEIGHT_MIN_PX to HEIGHT_MAX_PX with a note saying so.

const AUTOPLAY_ON = ["", "autoplay", "true", "on", "yes", "1"];
const AUTOPLAY_OFF = ["false", "off", "no", "0"];

/**
 * Whether the `autoplay` attribute asks to play. HTML's rule is "present means on", but
 * `autoplay="false"` is written meaning off, so "false", "off", "no" and "0" (any case) are
 * off. Another value is `warn`ed with what is allowed, and does not play.
 */
export function autoplayAsked(el, warn) {
  const raw = el.getAttribute("autoplay");
  const value = raw?.trim().toLowerCase();
  if (value == null || AUTOPLAY_OFF.includes(value)) return false;
  if (AUTOPLAY_ON.includes(value)) return true;
  warn(`autoplay="${raw}" is neither on nor off (autoplay or "true", "false" or no attribute); not playing.`);
  return false;
}

/** The cluster view's height, px: less and the nodes' names overlap; more dwarfs any page. */
export const HEIGHT_MIN_PX = 150;
export const HEIGHT_MAX_PX = 2400;
const px = (n) => `${Math.round(n).toLocaleString("en-US")} px`;

/**
 * The CSS height for the `height` attribute's `value` (a bare number is px): `{ css, note }`,
 * css "" for the default. A length is clamped (by CSS, so em and calc() are too); when it is
 * out of range in px, in, cm, mm, pt, vh or vw (the window's `vw` and `vh`, px), `note` says
 * so. A value that is not a length keeps the default, with a note; so does a percentage, of
 * the parent's height, which a page's flow leaves unset.
 */
export function heightOf(value, vw, vh) {
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)([a-z]*)$/i.exec(value.trim());
  const css = m && !m[2] ? `${m[1]}px` : value.trim();
  const range = `the cluster's height is ${px(HEIGHT_MIN_PX)} to ${px(HEIGHT_MAX_PX)} (e.g. height="360px" or "50vh")`;
  if (!CSS.supports("height", css) || /%|^(auto|inherit|initial|unset)$/i.test(css)) {
    return { css: "", note: `height="${value}" is not a CSS length the element can use; ${range}. Keeping the default height.` };
  }
  const per = m && { "": 1, px: 1, in: 96, cm: 96 / 2.54, mm: 9.6 / 2.54, pt: 4 / 3, vh: vh / 100, vw: vw / 100 }[m[2].toLowerCase()];
  const n = per ? Number(m[1]) * per : NaN;
  const used = n < HEIGHT_MIN_PX ? HEIGHT_MIN_PX : HEIGHT_MAX_PX;
  const note = n < HEIGHT_MIN_PX || n > HEIGHT_MAX_PX ? `height="${value}" is ${per === 1 ? "" : "about "}${px(n)}; ${range}. Using ${px(used)}.` : null;
  return { css: `clamp(${HEIGHT_MIN_PX}px, ${css}, ${HEIGHT_MAX_PX}px)`, note };
}
