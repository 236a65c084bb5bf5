/** The value a change snapshot keeps for one workspace entry. */
import type { WorkspaceStat } from './workspace-services.js';

/**
 * The value a snapshot keeps for one entry: its size, modification and change times, and for a
 * symbolic link the path it holds (a link and a file of the same stats still differ).
 */
export function snapshotValue(s: WorkspaceStat): string {
  const stats = `${s.size}:${s.mtimeMs}:${s.changeMs ?? ''}`;
  return s.kind === 'symlink' ? `${stats}:link:${s.linkTarget ?? ''}` : stats;
}
