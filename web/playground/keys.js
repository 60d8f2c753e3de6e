// Keyboard shortcuts, as data: the `?` list shows this table, and the element's key handler
// dispatches the global ones. Fault shortcuts act on the acting leader, as RaftScope's do.

/** [keys shown, what it does, key values that trigger it (global ones only)]. */
export const SHORTCUTS = [
  ["Space", "Play / pause (on the page, not on a focused button)", [" "]],
  [".", "Step: process one event", ["."]],
  [",", "Back 100 ms", [","]],
  ["k", "Crash the leader", ["k"]],
  ["p", "Pause the leader (for the pause length set in its menu)", ["p"]],
  ["i", "Isolate the leader from everyone", ["i"]],
  ["r", "Restart every crashed node", ["r"]],
  ["h", "Heal every link", ["h"]],
  ["c", "Raft: a client proposes a command to the leader", ["c"]],
  ["n", "In a story: go on after a beat (next)", ["n"]],
  ["1 – 9", "Focus node n1 … n9", ["1", "2", "3", "4", "5", "6", "7", "8", "9"]],
  ["?", "Show this list", ["?"]],
  ["Enter or Space", "On a node, the store, the resource or a link: open its menu"],
  ["Arrow keys", "In the cluster: the next or previous part; in a menu: the next or previous action"],
  ["Escape", "Close the menu (focus goes back to the node) or this list"],
  ["← → (Shift: 1 s steps)", "On the timeline: back or forward 100 ms"],
  ["Page Up / Page Down, Home / End", "On the timeline: ±1 s, the start, the furthest time reached"],
];

/** The action name for global key `key`, or undefined. */
export function shortcutFor(key) {
  const names = { " ": "toggle", ".": "step", ",": "back", k: "crash-leader", p: "pause-leader", i: "isolate-leader", r: "restart-crashed", h: "heal", c: "propose", n: "next", "?": "help" };
  if (/^[1-9]$/.test(key)) return `focus-n${key}`;
  return names[key];
}

/** Whether a keydown's target handles Space/Enter itself (a button, a field, a slider...). */
export function ownsKeys(target) {
  if (!target?.tagName) return false;
  const tag = target.tagName.toUpperCase();
  if (["INPUT", "SELECT", "TEXTAREA", "BUTTON", "A", "SUMMARY", "DIALOG"].includes(tag)) return true;
  const role = target.getAttribute?.("role");
  return ["button", "slider", "menuitem", "link", "checkbox", "switch"].includes(role) || target.isContentEditable;
}
