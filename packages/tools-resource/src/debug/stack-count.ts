/** Counting the frames of a stack past the page `stack` shows. */
import type { DebugSession } from './debug-session.js';

/** Frames past the first page `stack` counts at most (a deeper stack is reported as "at least"). */
export const MAX_COUNTED_FRAMES = 2_000;

/** How many frames the thread has after the first `start`, counted up to {@link MAX_COUNTED_FRAMES}. */
export async function framesAfter(
  s: DebugSession,
  threadId: number,
  start: number,
): Promise<{ readonly count: number; readonly bounded: boolean }> {
  const body = await s.request('stackTrace', { threadId, startFrame: start, levels: MAX_COUNTED_FRAMES });
  const count = Math.min((body.stackFrames as unknown[] | undefined)?.length ?? 0, MAX_COUNTED_FRAMES);
  return { count, bounded: count >= MAX_COUNTED_FRAMES };
}
