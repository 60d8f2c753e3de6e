// Names of simulated processes as the package gives them: node ids (numbers) or the strings
// "store" and "resource".

/** `n1`, `n2`, ... made once each: the views ask for them many times a frame. */
const NODE_KEYS = [];

/** A stable string key for a process: `n3`, `store`, `resource`. */
export function procKey(p) {
  if (typeof p === "string") return p;
  if (Number.isInteger(p) && p >= 0 && p < 4096) return (NODE_KEYS[p] ??= `n${p}`);
  return `n${p}`;
}
