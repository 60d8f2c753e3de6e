// Reading a Chromium trace (playwright-core's browser.startTracing / stopTracing) for the
// playground's frames (the bench runner skips files whose name starts with "_").

/** Trace categories that record each animation frame with its wall and thread time. */
export const FRAME_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline"];

/**
 * The animation frames (FireAnimationFrame) on the page's main thread of `events` (a trace's
 * traceEvents), as `{ ts, dur, tdur }` in ms: `dur` is wall time, `tdur` the thread's CPU time.
 * On a shared machine a frame whose `dur` is far above its `tdur` waited for a core.
 */
export function animationFrames(events) {
  const withFrames = new Set(events.filter((e) => e.name === "FireAnimationFrame").map((e) => `${e.pid}:${e.tid}`));
  const main = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain" && withFrames.has(`${e.pid}:${e.tid}`));
  if (!main) return [];
  return events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X" && e.name === "FireAnimationFrame")
    .map((e) => ({ ts: e.ts / 1000, dur: e.dur / 1000, tdur: (e.tdur ?? NaN) / 1000 }));
}
