// Number fields as people type them: "300", "300 ms", "0.3 s", "1%", "10000 ppm". Each field
// has a unit (ms, ppm, or none) and a range; `parseField` returns the value in the field's
// unit or an error message in the field's own words, so the page can refuse a bad value at the
// field instead of sending it to the simulator.

/** Units a field accepts, each as [suffix pattern, factor to the field's unit]. */
const UNITS = {
  ms: [[/^(ms|msec|milliseconds?)$/, 1], [/^(s|sec|seconds?)$/, 1000], [/^$/, 1]],
  ppm: [[/^ppm$/, 1], [/^%$/, 10_000], [/^$/, 1]],
  count: [[/^$/, 1]],
};

/**
 * Parses `text` for a field `{ label, unit: "ms"|"ppm"|"count", min, max, integer }`.
 * Returns `{ value }` in the field's unit, or `{ error }`: a sentence naming the field, the
 * allowed range in its unit, and what was typed.
 */
export function parseField(text, field) {
  const raw = String(text ?? "").trim();
  const unit = field.unit ?? "count";
  const range = `${fmt(field.min)}–${fmt(field.max)}${unitText(unit)}`;
  if (raw === "") return { error: `${field.label}: enter a value (${range}).` };
  const m = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)\s*([a-z%]*)$/i.exec(raw.replace(/[\s_,](?=\d{3}\b)/g, ""));
  if (!m) return { error: `${field.label}: "${raw}" is not a number (${range}).` };
  const suffix = m[2].toLowerCase();
  const conv = UNITS[unit].find(([re]) => re.test(suffix));
  if (!conv) {
    const allowed = UNITS[unit].map(([re]) => re.source.replace(/[\^$()]/g, "").split("|")[0]).filter(Boolean);
    const use = allowed.length ? allowed.join(" or ") : "a plain number";
    return { error: `${field.label}: "${suffix}" is not a unit here; use ${use} (${range}).` };
  }
  const value = Number(m[1]) * conv[1];
  if (!Number.isFinite(value)) return { error: `${field.label}: "${raw}" is not a number (${range}).` };
  if (field.integer && !Number.isInteger(value)) return { error: `${field.label}: use a whole number (${range}); you typed ${raw}.` };
  if (value < field.min || value > field.max) {
    const typed = suffix && conv[1] !== 1 ? ` (${raw} is ${fmt(value)}${unitText(unit)})` : ` (you typed ${raw})`;
    return { error: `${field.label}: must be ${range}${typed}.` };
  }
  return { value };
}

function unitText(unit) {
  return unit === "ms" ? " ms" : unit === "ppm" ? " ppm" : "";
}

function fmt(x) {
  return Number.isInteger(x) ? String(x) : String(Math.round(x * 1000) / 1000);
}
