/**
 * Git's output under read deny rules, filtered after the fact (so nothing git printed escapes a
 * check made before it ran): a diff keeps only the sections of files the rules show, and free-form
 * output (what `checkout`, `stash` and `worktree` print, a failure's message) loses every line that
 * names a hidden path.
 */
import type { ToolContext, WorkspaceGit } from '@a3s-code/core';
import { hiddenOf, linkedHidden, type ReadDenied, toWorkspacePath } from './git-hidden.js';
import { git } from './git-run.js';

const QUOTED_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** A C-quoted path as git prints it (`"a/secr\303\251t"`), or `undefined` when malformed. */
function unquote(quoted: string): string | undefined {
  if (quoted.length < 2 || !quoted.startsWith('"') || !quoted.endsWith('"')) return undefined;
  const bytes: number[] = [];
  const body = quoted.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '"') return undefined;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[++i];
    if (next === undefined) return undefined;
    const oct = /^[0-7]{3}/.exec(body.slice(i, i + 3));
    if (oct !== null) {
      bytes.push(Number.parseInt(oct[0], 8));
      i += 2;
    } else if (QUOTED_ESCAPES[next] !== undefined) bytes.push(QUOTED_ESCAPES[next]);
    else return undefined;
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The two prefixed paths of `diff --git a/P b/Q` (renames off: P is Q), or `undefined`. */
function gitHeaderPaths(rest: string): string[] | undefined {
  if (rest.startsWith('"')) {
    const m = /^("(?:[^"\\]|\\.)*") ("(?:[^"\\]|\\.)*"|b\/.*)$/.exec(rest);
    if (m === null) return undefined;
    const a = unquote(m[1]!);
    const b = m[2]!.startsWith('"') ? unquote(m[2]!) : m[2];
    return a?.startsWith('a/') && b?.startsWith('b/') ? [a.slice(2), b.slice(2)] : undefined;
  }
  if (rest.endsWith('"')) {
    const cut = rest.indexOf(' "b/');
    const b = cut < 0 ? undefined : unquote(rest.slice(cut + 1));
    const a = cut < 0 ? undefined : rest.slice(0, cut);
    return a?.startsWith('a/') && b?.startsWith('b/') ? [a.slice(2), b.slice(2)] : undefined;
  }
  // Without quotes and with both sides equal, `a/P b/P` splits in the middle.
  const half = (rest.length - 5) / 2;
  const path = rest.slice(2, 2 + half);
  return Number.isInteger(half) && half > 0 && rest === `a/${path} b/${path}` ? [path] : undefined;
}

/** The paths a diff section's first line names, or `undefined` when it is not one git writes. */
function sectionPaths(line: string): string[] | undefined {
  if (line.startsWith('diff --git ')) return gitHeaderPaths(line.slice('diff --git '.length));
  for (const head of ['diff --cc ', 'diff --combined ', '* Unmerged path ']) {
    if (!line.startsWith(head)) continue;
    const rest = line.slice(head.length);
    const path = rest.startsWith('"') ? unquote(rest) : rest;
    return path === undefined || path === '' ? undefined : [path];
  }
  return undefined;
}

/** How many files a diff's filter looks at for other names (hard links) at once. */
const LINK_LOOKS = 32;

/**
 * A diff (renames off, prefixes `a/` and `b/`) without the sections of hidden files, and of files
 * whose working-tree file is another name (a hard link) of a hidden one. A section whose header
 * does not parse goes too, and so does anything before the first section.
 */
export async function diffWithoutHidden(
  service: WorkspaceGit,
  ctx: ToolContext,
  denied: ReadDenied,
  diff: string,
): Promise<string> {
  const sections: { paths: string[] | undefined; lines: string[] }[] = [];
  for (const line of diff.split('\n')) {
    const paths = sectionPaths(line);
    const starts = paths !== undefined || line.startsWith('diff --') || line.startsWith('* Unmerged path ');
    if (starts || sections.length === 0) sections.push({ paths: starts ? paths : undefined, lines: [line] });
    else sections.at(-1)!.lines.push(line);
  }
  const named = [...new Set(sections.flatMap((s) => s.paths ?? []))];
  const hidden = await hiddenOf(service, ctx, denied, named);
  const toWorkspace = await toWorkspacePath(service, ctx);
  const shown = named.filter((p) => !hidden.has(p));
  // Each is a look at the file (a few system calls): {@link LINK_LOOKS} at a time.
  for (let i = 0; i < shown.length; i += LINK_LOOKS) {
    const batch = shown.slice(i, i + LINK_LOOKS);
    const linked = await Promise.all(batch.map((p) => linkedHidden(ctx, toWorkspace(p))));
    batch.forEach((p, k) => {
      if (linked[k] !== undefined) hidden.add(p);
    });
  }
  const kept = sections.filter((s) => s.paths?.every((p) => !hidden.has(p)) === true);
  if (kept.length === sections.length) return diff;
  const text = kept.map((s) => s.lines.join('\n')).join('\n');
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

// What may surround a path in git's messages: quotes, brackets, punctuation.
const TRIM = /^[\s'"`([{<]+|[\s'"`)\]}>.,;:]+$/g;
// A name git's messages may split into several words or quote.
const UNWORDLIKE = /[\s"\\\u0000-\u001f]/;

/**
 * `text` (git's free-form output) without the lines that name a hidden path: a word the rules
 * hide, or a hidden file's name that is not one word (spaces, quotes) from the index, the working
 * tree or one of `trees` (commit-ish whose files git may have named).
 */
export async function scrubOutput(
  service: WorkspaceGit,
  ctx: ToolContext,
  denied: ReadDenied,
  text: string,
  trees: readonly string[] = [],
): Promise<{ text: string; dropped: number }> {
  if (text.trim() === '') return { text, dropped: 0 };
  const toWorkspace = await toWorkspacePath(service, ctx);
  const words = new Map<string, Promise<boolean>>();
  const hiddenWord = (w: string): Promise<boolean> => {
    let hidden = words.get(w);
    if (hidden === undefined) {
      hidden = Promise.all([denied(toWorkspace(w)), denied(w)]).then(([a, b]) => a !== undefined || b !== undefined);
      words.set(w, hidden);
    }
    return hidden;
  };
  const spelled = await hiddenMultiWordNames(service, ctx, denied, trees, toWorkspace);
  const kept: string[] = [];
  let dropped = 0;
  for (const line of text.split('\n')) {
    let hides = spelled.some((n) => line.includes(n));
    for (const word of line.split(/\s+/)) {
      if (hides) break;
      const w = word.replace(TRIM, '');
      if (w !== '') hides = await hiddenWord(w);
    }
    if (hides) dropped++;
    else kept.push(line);
  }
  return { text: kept.join('\n'), dropped };
}

/** The hidden files (both spellings) of the index, the working tree and `trees` whose names are not one word. */
async function hiddenMultiWordNames(
  service: WorkspaceGit,
  ctx: ToolContext,
  denied: ReadDenied,
  trees: readonly string[],
  toWorkspace: (repoPath: string) => string,
): Promise<string[]> {
  const names = new Set<string>();
  const listed = [['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--full-name']];
  for (const tree of trees) listed.push(['ls-tree', '-r', '-z', '--name-only', '--full-tree', tree, '--']);
  for (const argv of listed) {
    const out = await git(service, ctx, argv).catch(() => '');
    for (const n of out.split('\0')) if (UNWORDLIKE.test(n)) names.add(n);
  }
  const hidden = [...(await hiddenOf(service, ctx, denied, [...names]))];
  return hidden.flatMap((n) => [n, toWorkspace(n)]).flatMap((n) => (n === '' ? [] : [n, cQuoted(n)]));
}

const C_ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A name as git C-quotes it, without the surrounding quotes. */
function cQuoted(name: string): string {
  return name.replace(
    /[\\"\u0000-\u001f]/g,
    (c) => C_ESCAPES[c] ?? `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`,
  );
}
