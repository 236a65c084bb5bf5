/**
 * `git`: status, log, diff, branch list/create, checkout, stash and worktree list/create/remove
 * through the workspace's `git` service (simple-git on the local disk). Read operations are
 * scheduled read-only; every list is paginated with a cursor; `diff` pages by bytes.
 */
import {
  A3sError,
  CapabilityUnavailableError,
  defineTool,
  gitToolCommandLines,
  type ToolContext,
  type ToolResult,
  type WorkspaceGit,
} from '@a3s-code/core';
import { WorkspacePathError } from '../../errors.js';
import { assertWritable, normalizeWorkspacePath } from '../../paths/normalize.js';
import { failed, guard, ok } from '../shared/results.js';
import { gitBranches, gitDiff, gitLog, gitStashList, gitStatus, gitWorktrees } from './git-lists.js';
import {
  commitsOnly,
  readDeniedOf,
  refuseHiddenPath,
  refuseHiddenRewrites,
  refuseHiddenStash,
  refuseLeakingWorktree,
} from './git-hidden.js';
import { GitCommandError, git } from './git-run.js';
import { filesChangedBy } from './git-changes.js';
import { refuseConfigWrites } from './git-config-writes.js';
import { refuseDeniedWrites, WRITE_DENY_REFS, writeDeniedOf } from './git-writes.js';
import { refuseStateWrites } from './git-state.js';
import { scrubOutput } from './git-scrub.js';
import { gitInput, gitRules, isReadOnlyGit, type GitArgs } from './git-schema.js';
import toolJsonSchemas from '../../tool-json-schemas.generated.json' with { type: 'json' };

/** A worktree folder argument, checked to stay inside the workspace and out of `.a3s`. */
async function worktreePath(ctx: ToolContext, path: string): Promise<string> {
  const rel = normalizeWorkspacePath(path, { root: ctx.workspace.root, field: 'path' });
  assertWritable(rel, 'path', path);
  // Resolving through the file system refuses symlinks that lead out.
  if (ctx.workspace.fs) await ctx.workspace.fs.stat(rel, { signal: ctx.signal });
  if (rel === '') throw new WorkspacePathError('path', path, 'protected', 'is the workspace root itself');
  return rel;
}

/** The commit-ish whose files an operation's output may name besides the index and working tree. */
function treesOf(args: GitArgs): string[] {
  if (args.operation === 'stash' && args.action !== 'push' && args.action !== 'list') {
    const stash = `stash@{${args.index ?? 0}}`;
    return [stash, `${stash}^3`];
  }
  if (args.operation === 'checkout' && !args.create && args.ref) return [args.ref];
  if (args.operation === 'worktree' && args.action === 'create') return [args.ref ?? 'HEAD'];
  return [];
}

async function mutate(service: WorkspaceGit, ctx: ToolContext, args: GitArgs): Promise<ToolResult> {
  const denied = readDeniedOf(ctx);
  const worktree = args.operation === 'worktree' ? await worktreePath(ctx, args.path!) : undefined;
  const writeDenied = writeDeniedOf(ctx);
  // Under write deny rules a ref must name a local commit, so that every file it changes is listed.
  const changed = await filesChangedBy(
    service,
    ctx,
    args,
    worktree,
    writeDenied === undefined ? undefined : WRITE_DENY_REFS,
  );
  await refuseStateWrites(ctx, args, changed);
  await refuseConfigWrites(ctx, args, changed);
  if (denied !== undefined) await refuseHiddenStash(service, ctx, denied, args, changed);
  if (writeDenied !== undefined) await refuseDeniedWrites(ctx, writeDenied, args, changed);
  if (denied !== undefined) await refuseHiddenRewrites(denied, args, changed);
  const quoted = (argv: string[]): string[] => (denied === undefined ? argv : ['-c', 'core.quotePath=false', ...argv]);
  const run = async (argv: string[], summary: string, then?: string[]): Promise<ToolResult> => {
    let out = (await git(service, ctx, quoted(argv))).trim();
    if (then !== undefined) out = `${out}\n${(await git(service, ctx, quoted(then))).trimEnd()}`.trim();
    if (denied !== undefined) {
      const { text, dropped } = await scrubOutput(service, ctx, denied, out, treesOf(args));
      out =
        `${text.trim()}${dropped === 0 ? '' : `\n(${dropped} line${dropped === 1 ? '' : 's'} naming files this session may not read left out)`}`.trim();
    }
    return ok(`${summary}${out ? `\n${out}` : ''}`, {
      operation: args.operation,
      action: args.action ?? null,
      args: argv,
    });
  };
  switch (args.operation) {
    case 'branch':
      return run(
        ['branch', '--', args.name!, ...(args.start_point ? [args.start_point] : [])],
        `created branch ${args.name}`,
      );
    case 'checkout':
      return run(
        args.create ? ['checkout', '-b', args.ref!] : ['checkout', args.ref!, '--'],
        `checked out ${args.ref}`,
      );
    case 'stash': {
      const action = args.action ?? 'push';
      if (action === 'push') {
        const argv = ['stash', 'push'];
        if (args.include_untracked) argv.push('--include-untracked');
        if (args.message) argv.push('-m', args.message);
        return run(argv, 'stashed changes');
      }
      // The status git prints after a pop or an apply runs git again in each submodule, under the
      // submodule's own configuration: it is quiet, and the status is taken without submodules'.
      const restores = action === 'pop' || action === 'apply';
      return run(
        ['stash', action, ...(restores ? ['--quiet'] : []), `stash@{${args.index ?? 0}}`],
        `stash ${action} stash@{${args.index ?? 0}}`,
        restores ? ['status', '--short', '--ignore-submodules=dirty'] : undefined,
      );
    }
    case 'worktree': {
      const path = worktree!;
      if (denied !== undefined && args.action !== 'remove') {
        await refuseHiddenPath(denied, path, 'a worktree at');
        const commit =
          args.ref === undefined ? undefined : await commitsOnly(service, ctx, args.ref, 'a worktree checks out');
        await refuseLeakingWorktree(service, ctx, denied, path, commit);
      }
      if (args.action === 'remove')
        return run(['worktree', 'remove', ...(args.force ? ['--force'] : []), '--', path], `removed worktree ${path}`);
      const argv = ['worktree', 'add'];
      if (args.name) argv.push('-b', args.name);
      argv.push('--', path);
      if (args.ref) argv.push(args.ref);
      return run(argv, `created worktree ${path}`);
    }
    default:
      throw new A3sError('GIT_UNSUPPORTED', `git: operation '${args.operation}' has no mutation`);
  }
}

/** A failure whose message names no hidden path (under read deny rules). */
async function scrubbedFailure(
  service: WorkspaceGit,
  ctx: ToolContext,
  args: GitArgs,
  error: GitCommandError,
): Promise<GitCommandError> {
  const denied = readDeniedOf(ctx);
  if (denied === undefined || error.stderr === '') return error;
  const { text, dropped } = await scrubOutput(service, ctx, denied, error.stderr, treesOf(args));
  if (dropped === 0) return error;
  return error.withStderr(
    `${text.trim()}\n(${dropped} line${dropped === 1 ? '' : 's'} naming files this session may not read left out)`,
  );
}

/** The `git` tool. */
export const gitTool = defineTool({
  name: 'git',
  description: `Git in the workspace repository. operation:
- status: changed files (paged).
- log: commits newest first; ref and path narrow it; limit/cursor page it.
- diff: working-tree changes, staged (staged: true) or ref ("HEAD~1", "main..feature"); paged by bytes with byte_offset and max_bytes (default 65536); metadata.next_byte_offset continues.
- branch: action list (default, paged) or create (name, start_point).
- checkout: ref, with create: true to create the branch.
- stash: action push (default; message, include_untracked), pop, apply, drop (index), list.
- worktree: action list (default), create (path inside the workspace; ref, or name for a new branch), remove (path, force).
Lists page with limit (1..1000, default 50) and metadata.next_cursor. A checkout, stash or worktree that would change files under .a3s/ (the session's own state) or the agent's configuration at any depth (a3s.config.json, .a3s/ in a subfolder) is refused.`,
  inputJsonSchema: toolJsonSchemas.git,
  input: gitInput,
  plainInput: true,
  refine: gitRules,
  tier: 'write',
  requires: ['git'],
  capabilities: {
    readOnly: false,
    idempotent: false,
    resumable: false,
    cancelSafe: false,
    paginated: true,
    maxParallelism: 1,
    outputType: 'text',
  },
  // `Bash(git …)` deny and ask rules hold for the git commands a call runs.
  shellEquivalent: (args) => gitToolCommandLines(args),
  capabilitiesFor: (args) =>
    isReadOnlyGit(args)
      ? { readOnly: true, idempotent: true, resumable: true, cancelSafe: true, maxParallelism: 4 }
      : {},
  execute: (args, ctx) =>
    guard(async () => {
      const service = ctx.workspace.git;
      if (!service) throw new CapabilityUnavailableError('git', 'git');
      try {
        switch (args.operation) {
          case 'status':
            return await gitStatus(service, ctx, args);
          case 'log':
            return await gitLog(service, ctx, args);
          case 'diff':
            return await gitDiff(service, ctx, args);
          case 'branch':
            return (args.action ?? 'list') === 'list'
              ? await gitBranches(service, ctx, args)
              : await mutate(service, ctx, args);
          case 'stash':
            return args.action === 'list' ? await gitStashList(service, ctx, args) : await mutate(service, ctx, args);
          case 'worktree':
            return (args.action ?? 'list') === 'list'
              ? await gitWorktrees(service, ctx, args, ctx.workspace.root)
              : await mutate(service, ctx, args);
          default:
            return await mutate(service, ctx, args);
        }
      } catch (error) {
        if (error instanceof GitCommandError) return failed(await scrubbedFailure(service, ctx, args, error));
        throw error;
      }
    }),
});
