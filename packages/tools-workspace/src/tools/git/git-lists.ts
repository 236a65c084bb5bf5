/**
 * The read-only `git` operations and lists, every list paginated with a cursor: `status`,
 * `log`, `diff` (byte pages), `branch list`, `stash list`, `worktree list`.
 */
import { PermissionDeniedError, type ToolContext, type ToolResult, type WorkspaceGit } from '@a3s-code/core';
import { decodeCursor, encodeCursor, fingerprint } from '../shared/cursor.js';
import { ok } from '../shared/results.js';
import { byteLength } from '../shared/text.js';
import { commitsOnly, hiddenOf, linkedHidden, readDeniedOf, refuseHiddenPath } from './git-hidden.js';
import { git } from './git-run.js';
import { diffWithoutHidden } from './git-scrub.js';
import type { GitArgs } from './git-schema.js';

/** A page of a list, resumed by offset. */
function listPage<T>(
  name: string,
  args: GitArgs,
  items: readonly T[],
  render: (t: T) => string,
  extra: Record<string, unknown> = {},
): ToolResult {
  const limit = args.limit ?? 50;
  const fp = fingerprint(['git', args.operation, args.action ?? '', args.ref ?? '', args.path ?? '']);
  const offset = decodeCursor('git', fp, args.cursor)?.offset ?? 0;
  const page = items.slice(offset, offset + limit);
  const more = offset + limit < items.length;
  const next = more ? encodeCursor('git', fp, { offset: offset + limit }) : null;
  const tail = next ? `\n[${items.length - offset - page.length} more: pass cursor=${JSON.stringify(next)}]` : '';
  return ok((page.length === 0 ? `(no ${name})` : page.map(render).join('\n')) + tail, {
    operation: args.operation,
    total: items.length,
    returned: page.length,
    truncated: more,
    next_cursor: next,
    items: page,
    ...extra,
  });
}

/** `status`: branch line and porcelain entries, sorted by path. */
export async function gitStatus(service: WorkspaceGit, ctx: ToolContext, args: GitArgs): Promise<ToolResult> {
  const out = await git(service, ctx, [
    'status',
    '--porcelain=v1',
    '-z',
    '--branch',
    '--untracked-files=all',
    '--ignore-submodules=dirty',
  ]);
  const records = out.split('\0').filter((r) => r !== '');
  let branch = '';
  const entries: Array<{ status: string; path: string; from?: string }> = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    if (r.startsWith('## ')) {
      branch = r.slice(3);
      continue;
    }
    const status = r.slice(0, 2);
    const path = r.slice(3);
    if (status.includes('R') || status.includes('C')) entries.push({ status, path, from: records[++i] ?? '' });
    else entries.push({ status, path });
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const denied = readDeniedOf(ctx);
  const hidden =
    denied === undefined
      ? new Set<string>()
      : await hiddenOf(service, ctx, denied, [
          ...new Set(entries.flatMap((e) => (e.from === undefined ? [e.path] : [e.path, e.from]))),
        ]);
  // A file renamed or copied from a hidden one shows as added: its old name is not shown.
  const shown = entries
    .filter((e) => !hidden.has(e.path))
    .map((e) =>
      e.from !== undefined && hidden.has(e.from) ? { status: e.status.replace(/[RC]/g, 'A'), path: e.path } : e,
    );
  // The tree is not clean while a hidden file changed: say how many are left out, never which.
  const withheld = entries.length - shown.length;
  const result = listPage(
    withheld > 0 ? 'changes this session may read' : 'changes',
    args,
    shown,
    (e) => `${e.status} ${e.path}${e.from ? ` (from ${e.from})` : ''}`,
    {
      branch,
      clean: entries.length === 0,
      ...(withheld > 0 ? { withheld } : {}),
    },
  );
  const note =
    withheld > 0
      ? `\n[${withheld} more changed path${withheld === 1 ? '' : 's'} not shown: this session may not read ${withheld === 1 ? 'it' : 'them'}]`
      : '';
  return { ...result, output: `## ${branch}\n${result.output}${note}` };
}

/** `log`: commits newest first, paged with `--skip`. */
export async function gitLog(service: WorkspaceGit, ctx: ToolContext, args: GitArgs): Promise<ToolResult> {
  const denied = readDeniedOf(ctx);
  if (denied !== undefined) await refuseHiddenPath(denied, args.path, 'log of');
  const limit = args.limit ?? 50;
  const fp = fingerprint(['git', 'log', args.ref ?? '', args.path ?? '']);
  const offset = decodeCursor('git', fp, args.cursor)?.offset ?? 0;
  const argv = ['log', '--format=%H%x1f%an%x1f%ae%x1f%aI%x1f%s%x1e', `--max-count=${limit + 1}`, `--skip=${offset}`];
  if (args.ref) argv.push(args.ref);
  argv.push('--');
  // Under read deny rules the path is taken literally: pathspec magic would name hidden files by other spellings.
  if (args.path) argv.push(denied === undefined ? args.path : `:(literal)${args.path}`);
  const out = await git(service, ctx, argv);
  const commits = out
    .split('\x1e')
    .map((r) => r.trim())
    .filter((r) => r !== '')
    .map((r) => {
      const [hash = '', author = '', email = '', date = '', subject = ''] = r.split('\x1f');
      return { hash, author, email, date, subject };
    });
  const more = commits.length > limit;
  const page = commits.slice(0, limit);
  const next = more ? encodeCursor('git', fp, { offset: offset + limit }) : null;
  const text = page.map((c) => `${c.hash.slice(0, 10)} ${c.date.slice(0, 10)} ${c.author}: ${c.subject}`).join('\n');
  const tail = next ? `\n[more commits: pass cursor=${JSON.stringify(next)}]` : '';
  return ok((text || '(no commits)') + tail, {
    operation: 'log',
    returned: page.length,
    truncated: more,
    next_cursor: next,
    commits: page,
  });
}

/** `diff`: a byte page of the diff, cut at a line end, with the next byte offset. */
export async function gitDiff(service: WorkspaceGit, ctx: ToolContext, args: GitArgs): Promise<ToolResult> {
  const options: string[] = [];
  if (args.staged) options.push('--cached');
  const pathspec = args.path ? [args.path] : [];
  const denied = readDeniedOf(ctx);
  if (denied !== undefined) await refuseHiddenPath(denied, args.path, 'diff of');
  if (denied !== undefined && args.path !== undefined) {
    const refusal = await linkedHidden(ctx, args.path);
    if (refusal !== undefined) throw new PermissionDeniedError('git', `${refusal} (diff of ${args.path})`);
  }
  // Under read deny rules each side of the ref is checked to be a commit and diffed by its id.
  if (args.ref) options.push(denied === undefined ? args.ref : await commitsOnly(service, ctx, args.ref));
  // Under read deny rules: renames off (a hidden file is never paired with a shown one), fixed
  // prefixes and raw names, so each file's section header parses; hidden files' sections go.
  const argv =
    denied === undefined
      ? ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--ignore-submodules=dirty']
      : [
          '-c',
          'core.quotePath=false',
          'diff',
          '--no-color',
          '--no-ext-diff',
          '--no-textconv',
          '--no-renames',
          '--ignore-submodules=dirty',
        ];
  if (denied !== undefined) argv.push('--src-prefix=a/', '--dst-prefix=b/', '--no-relative');
  argv.push(...options, '--', ...pathspec);
  const raw = await git(service, ctx, argv);
  const full = Buffer.from(denied === undefined ? raw : await diffWithoutHidden(service, ctx, denied, raw), 'utf8');
  const start = Math.min(args.byte_offset ?? 0, full.length);
  const max = args.max_bytes ?? 65_536;
  let end = Math.min(full.length, start + max);
  if (end < full.length) {
    const nl = full.lastIndexOf(10, end - 1);
    if (nl >= start) end = nl + 1;
    else while (end > start && (full[end]! & 0xc0) === 0x80) end--;
  }
  const text = full.toString('utf8', start, end);
  const next = end < full.length ? end : null;
  const tail = next !== null ? `\n[diff continues: ${full.length - end} more bytes; pass byte_offset=${next}]` : '';
  return ok((full.length === 0 ? '(no differences)' : text) + tail, {
    operation: 'diff',
    total_bytes: full.length,
    byte_offset: start,
    returned_bytes: byteLength(text),
    next_byte_offset: next,
    truncated: next !== null,
  });
}

/** `branch list`. */
export async function gitBranches(service: WorkspaceGit, ctx: ToolContext, args: GitArgs): Promise<ToolResult> {
  const out = await git(service, ctx, [
    'branch',
    '--list',
    '--no-color',
    '--format=%(HEAD)%1f%(refname:short)%1f%(objectname:short)%1f%(subject)',
  ]);
  const branches = out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [head = '', name = '', commit = '', subject = ''] = l.split('\x1f');
      return { name, commit, current: head === '*', subject };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return listPage('branches', args, branches, (b) => `${b.current ? '*' : ' '} ${b.name} ${b.commit} ${b.subject}`);
}

/** `stash list`. */
export async function gitStashList(service: WorkspaceGit, ctx: ToolContext, args: GitArgs): Promise<ToolResult> {
  const out = await git(service, ctx, ['stash', 'list', '--format=%gd%x1f%s']);
  const stashes = out
    .split('\n')
    .filter((l) => l !== '')
    .map((l, index) => {
      const [ref = '', message = ''] = l.split('\x1f');
      return { index, ref, message };
    });
  return listPage('stashes', args, stashes, (s) => `${s.ref}: ${s.message}`);
}

/** `worktree list` (porcelain). */
export async function gitWorktrees(
  service: WorkspaceGit,
  ctx: ToolContext,
  args: GitArgs,
  root: string,
): Promise<ToolResult> {
  const out = await git(service, ctx, ['worktree', 'list', '--porcelain']);
  const trees = out
    .split('\n\n')
    .filter((b) => b.trim() !== '')
    .map((block) => {
      const fields = new Map(block.split('\n').map((l) => [l.split(' ')[0]!, l.slice(l.indexOf(' ') + 1)] as const));
      const abs = fields.get('worktree') ?? '';
      const path = abs === root ? '.' : abs.startsWith(`${root}/`) ? abs.slice(root.length + 1) : abs;
      return {
        path,
        head: fields.get('HEAD') ?? null,
        branch: fields.get('branch')?.replace(/^refs\/heads\//, '') ?? null,
        detached: fields.has('detached'),
      };
    });
  // A worktree inside a hidden folder is a hidden path: it is left out.
  const denied = readDeniedOf(ctx);
  const shown: typeof trees = [];
  for (const t of trees)
    if (denied === undefined || t.path === '.' || (await denied(t.path)) === undefined) shown.push(t);
  return listPage(
    'worktrees',
    args,
    shown,
    (t) => `${t.path} ${t.head?.slice(0, 10) ?? ''} ${t.branch ?? (t.detached ? '(detached)' : '')}`,
  );
}
