// The element's attributes that hold a yes or no, read as embedders write them (README.md,
// "Embed it in your docs"): `autoplay="false"` means off.

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
