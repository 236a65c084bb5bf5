/**
 * Restoring a saved conversation's attachments: before history with attachment references is
 * written into a log, every referenced artifact must be in that log's attachment store. Bytes
 * missing there are copied by hash from where the snapshot was taken (the snapshot's workspace,
 * or a memory store of this process) and checked against their SHA-256; an artifact found nowhere
 * is an {@link AttachmentMissingError} naming it, never a silently dropped attachment.
 */
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { AttachmentRef } from '@a3s-code/effect';
import type { HistoryTurn } from '../run/run-checkpoint.js';
import { AttachmentMissingError } from './attachment-errors.js';
import { FileAttachmentStore, pooledArtifact, type AttachmentStore } from './attachment-store.js';

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The attachment references of history turns, each hash once, in order. */
export function historyAttachments(history: readonly HistoryTurn[]): AttachmentRef[] {
  const seen = new Set<string>();
  const out: AttachmentRef[] = [];
  for (const turn of history)
    for (const ref of turn.attachments ?? [])
      if (!seen.has(ref.sha256)) {
        seen.add(ref.sha256);
        out.push(ref);
      }
  return out;
}

/** Where a snapshot taken in `workspaceDir` kept its attachments (`<dir>/.a3s/artifacts`). */
export function snapshotArtifactSource(workspaceDir: string | undefined, targetDir: string): AttachmentStore[] {
  if (workspaceDir === undefined || resolve(workspaceDir) === resolve(targetDir)) return [];
  return [new FileAttachmentStore(join(resolve(workspaceDir), '.a3s', 'artifacts'))];
}

/**
 * Makes every artifact `history` refers to present (and intact) in `target`, copying from
 * `sources` or this process's memory stores when it is not.
 * @throws AttachmentMissingError for the first artifact found nowhere intact, naming where it was looked for.
 */
export async function restoreHistoryArtifacts(
  target: AttachmentStore,
  history: readonly HistoryTurn[],
  sources: readonly AttachmentStore[],
): Promise<void> {
  for (const ref of historyAttachments(history)) {
    const own = await target.get(ref.sha256);
    if (own !== undefined && sha(own) === ref.sha256) continue;
    const found = await fromSources(ref.sha256, sources);
    if (found === undefined)
      throw new AttachmentMissingError(ref, own === undefined ? 'missing' : 'corrupt', target.locate(ref.sha256));
    await target.put(ref.sha256, found);
  }
}

async function fromSources(sha256: string, sources: readonly AttachmentStore[]): Promise<Uint8Array | undefined> {
  for (const source of sources) {
    const bytes = await source.get(sha256).catch(() => undefined);
    if (bytes !== undefined && sha(bytes) === sha256) return bytes;
  }
  const pooled = pooledArtifact(sha256);
  return pooled !== undefined && sha(pooled) === sha256 ? pooled : undefined;
}
