// Names of simulated processes as the package gives them: node ids (numbers) or the strings
// "store" and "resource".

/** A stable string key for a process: `n3`, `store`, `resource`. */
export function procKey(p) {
  return typeof p === "string" ? p : `n${p}`;
}
