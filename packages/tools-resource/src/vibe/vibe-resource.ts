/**
 * The vibe roster as a resource of the session: `resource.vibe`, opened on the first `vibe_*` call
 * on the session's worker port (core's `ToolResourceContext.workers`), closed with the session,
 * which stops its workers.
 */
import type { ToolResource } from '@a3s-code/core';
import { VibeRoster } from './roster.js';
import { VIBE_MAX_WORKERS, type VibeRosterOptions } from './vibe-types.js';
import { VibeError } from './vibe-errors.js';

/** The capability every `vibe_*` tool requires: the session's roster. */
export const VIBE_RESOURCE = 'resource.vibe';

/** The roster resource of a session, with the models of the tiers and the cap. */
export function vibeResource(options: VibeRosterOptions = {}): ToolResource<VibeRoster> {
  const max = options.maxWorkers;
  if (max !== undefined && !(Number.isInteger(max) && max >= VIBE_MAX_WORKERS.min && max <= VIBE_MAX_WORKERS.max))
    throw new VibeError(
      'VIBE_CONFIG',
      `maxWorkers: must be an integer from ${VIBE_MAX_WORKERS.min} to ${VIBE_MAX_WORKERS.max}, got ${JSON.stringify(max)}`,
      { field: 'maxWorkers' },
    );
  return {
    capability: VIBE_RESOURCE,
    opens: 'lazy',
    open: async (context) => {
      if (context.workers === undefined)
        throw new VibeError('VIBE_UNAVAILABLE', 'this session offers no background workers (no worker port)');
      return VibeRoster.open(context.workers, context.clock, options);
    },
  };
}
