// The share of a frame's goal kept aside from simulating, learned from the frames themselves
// (docs/frame.md, "The margin"). The goal is a p95: at most one frame in twenty may run past
// it. What a frame costs beyond its plan (a wait for a core, a view dearer than its smoothed
// figure, a burst of elections) depends on the machine, so a fixed share is either too thin
// on a busy machine or wastes speed on an idle one.

/** The share a run starts with, before any frame is measured. */
export const START_SHARE = 0.25;
/** The least share kept: the frame's script outside the element's callback (about 0.15 ms). */
export const MIN_SHARE = 0.1;
/** The most: the simulation keeps at least half the goal. */
export const MAX_SHARE = 0.5;
/** The share of frames allowed past the goal, below the goal's 5% so that p95 has room. */
export const TARGET_OVER = 0.03;
/** How far one frame past the goal raises the share (FrameMargin gives the step down). */
const STEP = 0.05;

/**
 * A stochastic-approximation controller: each frame past the goal raises the share by STEP,
 * each frame within it that the budget stopped short lowers it by
 * STEP x TARGET_OVER / (1 - TARGET_OVER), so the share settles where TARGET_OVER of the
 * frames the budget decides run past the goal.
 */
export class FrameMargin {
  constructor() {
    this.share = START_SHARE;
  }

  /**
   * Learns from a frame that simulated: its script ms against its goal ms, and whether the
   * budget stopped it short of the simulated time asked (`limited`). A frame within its goal
   * that ran all it was asked (a slow speed) says nothing of the margin, so it is not counted:
   * after a minute at 1x, 50x starts from the margin it had, not from the floor.
   */
  note(frameMs, goalMs, limited = true) {
    const over = frameMs > goalMs;
    if (!over && !limited) return;
    const step = over ? STEP : (-STEP * TARGET_OVER) / (1 - TARGET_OVER);
    this.share = Math.min(MAX_SHARE, Math.max(MIN_SHARE, this.share + step));
  }
}
