/**
 * `patch`: applies a strict unified diff to one or many files, all or nothing: every hunk of
 * every file is applied in memory first, and if any fails no file changes. CRLF files stay CRLF.
 */
import { A3sError, defineTool, type WorkspaceFileSystem } from '@a3s-code/core';
import { changeMetadata, describeChange, type DescribedChange } from '../shared/mutation.js';
import { failed, filesOf, guard, ok } from '../shared/results.js';
import { decodeText } from '../shared/text.js';
import { assertWritableArg } from '../shared/writable.js';
import { applyHunks } from './apply-patch.js';
import { parsePatch } from './parse-patch.js';
import toolJsonSchemas from '../../tool-json-schemas.generated.json' with { type: 'json' };

/** A patch that does not apply; nothing was written. */
export class PatchApplyError extends A3sError {
  constructor(path: string, message: string, details: Record<string, unknown>) {
    super('PATCH_FAILED', `${path}: ${message}; no file was changed`, { details: { path, ...details } });
  }
}

interface Planned {
  readonly path: string;
  readonly before: string | undefined;
  readonly after: string | undefined;
}

async function readText(fs: WorkspaceFileSystem, path: string, signal: AbortSignal): Promise<string | undefined> {
  const s = await fs.stat(path, { signal });
  if (!s) return undefined;
  return decodeText(await fs.readFile(path, { signal }));
}

/** The `patch` tool. */
export const patchTool = defineTool({
  name: 'patch',
  description: `Apply a unified diff (the format of "git diff" / "diff -u") to one or more files. Headers: "--- a/path" and "+++ b/path" ("/dev/null" to create or delete a file); hunks "@@ -start,count +start,count @@" whose line counts match their bodies. Context and removed lines must match the file exactly; a hunk may be found a few lines away from its stated position. All or nothing: if any hunk fails, no file is changed. Line endings of existing files are kept. Set dry_run to check a patch without writing.`,
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
      const files = parsePatch(args.patch);
      const plan: Planned[] = [];
      if (!args.dry_run)
        for (const f of files)
          for (const p of [f.oldPath, f.newPath]) if (p !== null) assertWritableArg(ctx, p, 'patch');
      for (const file of files) {
        const source = file.oldPath ?? file.newPath!;
        const before = file.oldPath === null ? undefined : await readText(fs, file.oldPath, ctx.signal);
        if (file.oldPath === null) {
          if ((await fs.stat(file.newPath!, { signal: ctx.signal })) !== undefined)
            return failed(new PatchApplyError(file.newPath!, 'the patch creates this file but it already exists', {}));
        } else if (before === undefined) return failed(new PatchApplyError(source, 'no such file', {}));
        const applied = applyHunks(before ?? '', file.hunks);
        if ('failure' in applied) {
          const f = applied.failure;
          return failed(
            new PatchApplyError(source, `hunk ${f.hunk} (patch line ${f.at}) does not apply: ${f.reason}`, {
              hunk: f.hunk,
              patch_line: f.at,
            }),
          );
        }
        if (file.newPath === null) {
          if (applied.text !== '')
            return failed(
              new PatchApplyError(source, 'the patch deletes this file but does not remove all of its lines', {}),
            );
          plan.push({ path: source, before, after: undefined });
        } else if (file.oldPath !== null && file.newPath !== file.oldPath) {
          plan.push({ path: file.oldPath, before, after: undefined });
          plan.push({ path: file.newPath, before: await readText(fs, file.newPath, ctx.signal), after: applied.text });
        } else plan.push({ path: file.newPath, before, after: applied.text });
      }
      const dry = args.dry_run === true;
      if (!dry) {
        const done: Planned[] = [];
        try {
          for (const step of plan) {
            if (step.after === undefined) await fs.remove(step.path, { signal: ctx.signal });
            else await fs.writeFile(step.path, step.after, { signal: ctx.signal });
            done.push(step);
          }
        } catch (error) {
          // Undo what was written so the workspace is as before.
          for (const step of done.reverse()) {
            if (step.before === undefined) await fs.remove(step.path).catch(() => undefined);
            else await fs.writeFile(step.path, step.before).catch(() => undefined);
          }
          throw error;
        }
      }
      const described: DescribedChange[] = plan.map((p) => describeChange(p.path, p.before, p.after));
      const summary = described
        .map((d) => `${d.change.action} ${d.change.path} (+${d.change.additions} -${d.change.deletions})`)
        .join('\n');
      return ok(
        `${dry ? 'dry run: the patch applies cleanly; would ' : 'applied patch: '}${plan.length} file(s)\n${summary}`,
        { dry_run: dry, applied: !dry, files: plan.length, ...changeMetadata(described) },
      );
    }),
});
