/**
 * `patch`: applies a strict unified diff to one or many files, all or nothing: every hunk of
 * every file is applied in memory first, and if any fails no file changes. CRLF files stay CRLF.
 */
import { defineTool, type WorkspaceFileSystem } from '@a3s-code/core';
import { withFileLocks } from '../shared/file-lock.js';
import { shownPath } from '../shared/text.js';
import { changeMetadata, describeChange, type DescribedChange } from '../shared/mutation.js';
import { failed, filesOf, guard, ok } from '../shared/results.js';
import { normalizeWorkspacePath } from '../../paths/normalize.js';
import { assertUnchanged } from '../shared/text-file.js';
import { assertWholeCharacters, assertWritableArg } from '../shared/writable.js';
import { parsePatch } from './parse-patch.js';
import { PatchApplyError, planPatch, type PlannedFile } from './plan-patch.js';
import toolJsonSchemas from '../../tool-json-schemas.generated.json' with { type: 'json' };

export { PatchApplyError };

/**
 * Writes a plan, each file only while it still holds the bytes it was planned from; when a
 * write fails (or a file changed meanwhile), the files already written get their bytes back, and
 * their executable bit (a deleted script comes back executable).
 */
async function writePlan(fs: WorkspaceFileSystem, plan: readonly PlannedFile[], signal: AbortSignal): Promise<void> {
  const done: { step: PlannedFile; executable: boolean | undefined }[] = [];
  try {
    for (const step of plan) {
      await assertUnchanged(fs, step.path, step.original, signal);
      const executable = step.original === undefined ? undefined : (await fs.stat(step.path, { signal }))?.executable;
      if (step.after === undefined) await fs.remove(step.path, { signal });
      else
        await fs.writeFile(step.path, step.data ?? step.after, {
          signal,
          ...(step.executable === undefined ? {} : { executable: step.executable }),
        });
      done.push({ step, executable });
    }
  } catch (error) {
    for (const { step, executable } of done.reverse()) {
      if (step.original === undefined) await fs.remove(step.path).catch(() => undefined);
      else
        await fs
          .writeFile(step.path, step.original, executable === undefined ? {} : { executable })
          .catch(() => undefined);
    }
    throw error;
  }
}

/** The `patch` tool. */
export const patchTool = defineTool({
  name: 'patch',
  description: `Apply a unified diff (the format of "git diff" / "diff -u") to one or more files. Headers: "--- a/path" and "+++ b/path" ("/dev/null" to create or delete a file); hunks "@@ -start,count +start,count @@" whose line counts match their bodies. A git rename ("diff --git a/old b/new", "rename from old", "rename to new") moves a file, with or without hunks, keeping its mode; it never replaces an existing file. Git mode lines ("new mode 100755", "new file mode 100755", or 100644) set or clear the executable bits, with or without hunks. Context and removed lines must match the file exactly; a hunk may be found a few lines away from its stated position. All or nothing: if any hunk fails, no file is changed. Line endings of existing files are kept. Set dry_run to check a patch without writing.`,
  inputJsonSchema: toolJsonSchemas.patch,
  plainInput: true,
  input: (z) =>
    z.strictObject({
      patch: z.string().min(1).describe('the unified diff text'),
      dry_run: z.boolean().optional().describe('check that the patch applies and return the result without writing'),
    }),
  tier: 'write',
  requires: ['fs.read', 'fs.write'],
  capabilities: {
    readOnly: false,
    idempotent: false,
    resumable: false,
    cancelSafe: true,
    paginated: false,
    maxParallelism: 1,
    outputType: 'diff',
  },
  capabilitiesFor: (args) =>
    args.dry_run === true ? { readOnly: true, idempotent: true, resumable: true, maxParallelism: 16 } : {},
  execute: (args, ctx) =>
    guard(async () => {
      const fs = filesOf(ctx, args.dry_run ? 'fs.read' : 'fs.write', 'patch');
      assertWholeCharacters('patch', 'patch', args.patch);
      const files = parsePatch(args.patch);
      if (!args.dry_run)
        for (const f of files)
          for (const p of [f.oldPath, f.newPath]) if (p !== null) assertWritableArg(ctx, p, 'patch');
      const root = ctx.workspace.root;
      const dry = args.dry_run === true;
      const paths = dry ? [] : files.flatMap((f) => [f.oldPath, f.newPath].filter((p): p is string => p !== null));
      const plan = await withFileLocks(ctx, paths, async () => {
        const planned = await planPatch(fs, files, ctx.signal, (p) =>
          normalizeWorkspacePath(p, { root, field: 'patch' }),
        );
        if (!dry && !(planned instanceof PatchApplyError)) await writePlan(fs, planned, ctx.signal);
        return planned;
      });
      if (plan instanceof PatchApplyError) return failed(plan);
      const described: DescribedChange[] = plan.map((p) => describeChange(p.path, p.before, p.after));
      const modeOf = (e: boolean | undefined): string =>
        e === undefined ? '' : `, mode ${e ? '100755 (executable)' : '100644 (not executable)'}`;
      const summary = described
        .map(
          (d, k) =>
            `${d.change.action} ${shownPath(d.change.path)} (+${d.change.additions} -${d.change.deletions}${modeOf(plan[k]!.executable)})`,
        )
        .join('\n');
      return ok(
        `${dry ? 'dry run: the patch applies cleanly; would ' : 'applied patch: '}${plan.length} file(s)\n${summary}`,
        { dry_run: dry, applied: !dry, files: plan.length, ...changeMetadata(described) },
      );
    }),
});
