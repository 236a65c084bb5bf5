/**
 * A steer with attachments: the run it is meant for is checked first (no file is read for a steer
 * that would be refused), then every attachment is read and checked as a prompt's are, its bytes
 * stored by SHA-256 in the run's attachment store, and only then is the steer queued with their
 * references. A bad attachment rejects with `ATTACHMENT_INVALID` and queues nothing, so the log
 * never sees it.
 */
import { prepareAttachments } from '../attachments/prepare-attachments.js';
import type { AttachedSteerOptions, SteerOptions, SteerReceipt } from '../run/control-inbox.js';
import type { LiveRun } from '../run/run-setup.js';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type { WorkspaceServices } from '../workspace/workspace-services.js';
import { checkCallOptions, hasAttachments } from './call-options.js';

/**
 * A steer for `live` (the active run, if any): queued at once, or after its attachments are stored.
 * A closed session (`SessionClosedError`, checked first) and bad options (`SessionConfigurationError`)
 * throw; with attachments, the returned promise rejects.
 */
export function steerRun(
  live: LiveRun | null,
  workspace: WorkspaceServices,
  text: string,
  given: SteerOptions | AttachedSteerOptions | undefined,
  policy: PermissionPolicy | undefined,
  refuseClosed: () => void,
): SteerReceipt | Promise<SteerReceipt> {
  if (hasAttachments(given)) {
    try {
      refuseClosed();
      const options = checkCallOptions('steer', given) as AttachedSteerOptions;
      return steerWithAttachments(live, workspace, text, options, policy, refuseClosed);
    } catch (e) {
      return Promise.reject(e);
    }
  }
  refuseClosed();
  const options = checkCallOptions('steer', given);
  if (!live) return { accepted: false, reason: 'no_active_run', message: 'no run is active on this session' };
  return live.inbox.offer(text, options);
}

/** Checks, stores and queues a steer's attachments on `live` (the run active when the steer was sent). */
async function steerWithAttachments(
  live: LiveRun | null,
  workspace: WorkspaceServices,
  text: string,
  options: AttachedSteerOptions,
  policy: PermissionPolicy | undefined,
  refuseClosed: () => void,
): Promise<SteerReceipt> {
  const { attachments, ...target } = options;
  if (typeof text !== 'string' || text.trim().length === 0)
    return { accepted: false, reason: 'empty', message: 'a steer needs non-empty text' };
  if (!live) return { accepted: false, reason: 'no_active_run', message: 'no run is active on this session' };
  const refused = live.inbox.refusal('steer', target);
  if (refused) return refused;
  const prepared = await prepareAttachments(attachments, {
    workspace,
    signal: live.env.signal,
    ...(policy === undefined ? {} : { policy }),
  });
  for (const a of prepared) await live.env.attachments?.put(a.ref.sha256, a.bytes);
  refuseClosed(); // the session may have closed while they were read and stored
  return live.inbox.offer(
    text,
    target,
    prepared.map((a) => a.ref),
  );
}
