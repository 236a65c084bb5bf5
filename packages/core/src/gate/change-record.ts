/**
 * How a tool result's metadata is read as changes, shared by the invoker (which records every
 * call's changes, nested ones included, in the top-level result) and the mutation ledger (which
 * reads them back from the log). Write-tier tools report `changes` (path + content digest after
 * the change); command tools report `changed_files` / `changed_paths`; `null` for either means
 * "changed, paths unknown". A change without a content digest gets a digest unique to the call
 * (`command:<ref>`), so a later change of the same path always changes the effect digest. A
 * dry run (`dry_run: true, applied: false`) changed nothing, whatever changes it previews. A call
 * re-run by a resume after the process died while it ran also records a change with unknown paths
 * for the interrupted attempt (`unknown:interrupted:<ref>`): what that attempt did is in no result.
 */

/** Metadata key of the change record the invoker attaches to a top-level result. */
export const CHANGE_RECORD_KEY = 'change_record';

/** Path of a change whose paths are unknown. */
export const UNKNOWN_PATH = '(unknown)';

/** One change in a change record (`metadata.change_record` of a top-level tool result). */
export interface ChangeRecordEntry {
  /** The call that made the change (the top-level call or one nested in it). */
  readonly call_id: string;
  /** The tool of that call. */
  readonly tool: string;
  /** Workspace path, or {@link UNKNOWN_PATH}. */
  readonly path: string;
  /** Content digest after the change, `deleted`, `command:<ref>` or `unknown:<ref>`. */
  readonly digest: string;
}

/** What a result says about its changes: the changes, "changed, paths unknown", or nothing at all. */
export type ReportedChanges =
  | { readonly kind: 'changes'; readonly changes: readonly { readonly path: string; readonly digest: string }[] }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'unreported' };

function asStrings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * Reads the change report of a result's metadata. `ref` identifies the call uniquely in the log;
 * it makes the digest of a change without a content digest unique to that call.
 */
export function reportedChanges(
  metadata: Readonly<Record<string, unknown>> | null | undefined,
  ref: string,
): ReportedChanges {
  const m = metadata ?? {};
  // A dry run (edit, patch) reports the changes a real run would make, and made none.
  if (m.dry_run === true && m.applied === false) return { kind: 'changes', changes: [] };
  const changes = m.changes;
  if (Array.isArray(changes)) {
    const out: { path: string; digest: string }[] = [];
    for (const c of changes as { path?: unknown; digest_after?: unknown; action?: unknown }[]) {
      if (typeof c?.path !== 'string') continue;
      const digest =
        c.action === 'delete' || c.digest_after === null
          ? 'deleted'
          : typeof c.digest_after === 'string'
            ? c.digest_after
            : `changed:${ref}`;
      out.push({ path: c.path, digest });
    }
    return { kind: 'changes', changes: out };
  }
  if (changes === null) return { kind: 'unknown' };
  const files = m.changed_files;
  const paths = m.changed_paths;
  if (files !== null && typeof files === 'object' && !Array.isArray(files)) {
    const f = files as { created?: unknown; modified?: unknown; deleted?: unknown };
    return {
      kind: 'changes',
      changes: [
        ...[...asStrings(f.created), ...asStrings(f.modified)].map((path) => ({ path, digest: `command:${ref}` })),
        ...asStrings(f.deleted).map((path) => ({ path, digest: 'deleted' })),
      ],
    };
  }
  if (Array.isArray(paths))
    return { kind: 'changes', changes: asStrings(paths).map((path) => ({ path, digest: `command:${ref}` })) };
  if (files === null || paths === null) return { kind: 'unknown' };
  return { kind: 'unreported' };
}

/** The change-record entry of a change whose paths are unknown. */
export function unknownChange(callId: string, tool: string, ref: string): ChangeRecordEntry {
  return { call_id: callId, tool, path: UNKNOWN_PATH, digest: `unknown:${ref}` };
}

/** Digest prefix of the change with unknown paths an attempt interrupted by a crash stands for. */
const INTERRUPTED = 'unknown:interrupted:';

/**
 * The change-record entry of an attempt of a call that the process died while running (its result
 * never reached the log): re-run on resume, the call cannot tell what that attempt changed.
 */
export function interruptedChange(callId: string, tool: string, ref: string): ChangeRecordEntry {
  return { call_id: callId, tool, path: UNKNOWN_PATH, digest: `${INTERRUPTED}${ref}` };
}

/** True for the digest of {@link interruptedChange}. */
export function isInterruptedChange(digest: string): boolean {
  return digest.startsWith(INTERRUPTED);
}

/** The entries of a `metadata.change_record`, or `undefined` when the metadata has none. */
export function readChangeRecord(
  metadata: Readonly<Record<string, unknown>> | null | undefined,
): ChangeRecordEntry[] | undefined {
  const record = metadata?.[CHANGE_RECORD_KEY];
  if (!Array.isArray(record)) return undefined;
  const out: ChangeRecordEntry[] = [];
  for (const e of record as Partial<Record<keyof ChangeRecordEntry, unknown>>[]) {
    if (typeof e?.tool !== 'string' || typeof e.path !== 'string' || typeof e.digest !== 'string') continue;
    out.push({ call_id: typeof e.call_id === 'string' ? e.call_id : '', tool: e.tool, path: e.path, digest: e.digest });
  }
  return out;
}
