/**
 * Which files the permission rules keep from a program under debug. The adapter and its debuggee
 * live on between calls; a file at a kept path replaced since they started (renamed over, removed
 * and written again, which may reuse the inode number) is another file, not kept from them, so a
 * later call whose hold names other files ends the session instead of reaching the program.
 */
import type { HeldProcessCommand } from '@a3s-code/core';

/**
 * The files a hold keeps from a process, as one string to compare: their identity (see
 * `HeldProcessCommand.identity`) when the hold gives it, else their paths.
 */
export function heldFilesOf(held: Pick<HeldProcessCommand, 'hidden' | 'identity'>): string {
  return held.identity ?? [...held.hidden].sort().join('\u0000');
}

/** Why a session whose kept files were `before` must end when a call's hold keeps `now`, or `undefined`. */
export function keptFilesChanged(before: string | undefined, now: string | undefined): string | undefined {
  if (before === undefined || now === undefined || before === now) return undefined;
  return 'the debug session was ended because the files the permission rules keep from the program changed since it was launched (one was replaced or added), and the running program could read them; launch it again';
}
