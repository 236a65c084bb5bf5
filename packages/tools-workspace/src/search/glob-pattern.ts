/**
 * Glob patterns with gitignore semantics, shared by `.gitignore` rules, `grep --glob` and `glob`:
 * a pattern without a `/` (other than a trailing one) matches a name at any depth; one with a `/`
 * is anchored to its base. `*` and `?` stay within one component, `**` spans any number,
 * `[...]` is a class and `{a,b}` alternation. This is the subset ripgrep's globs share.
 */
import { WorkspacePathError, WorkspaceSearchError } from '../errors.js';
import { boundBacktracking } from './backtracking.js';
import { assertNoNul } from './js-regex.js';

/** A compiled pattern. */
export interface CompiledGlob {
  /** The pattern as given. */
  readonly source: string;
  /** `true` when the pattern is anchored (contains a `/` before its end). */
  readonly anchored: boolean;
  /** `true` for a trailing `/`: matches directories only. */
  readonly dirOnly: boolean;
  /** Tests a relative path (anchored) or a single name (unanchored). */
  readonly regex: RegExp;
}

function classToRegex(glob: string, start: number): [string, number] {
  let i = start + 1;
  let out = '[';
  if (glob[i] === '!' || glob[i] === '^') {
    out += '^';
    i++;
  }
  if (glob[i] === ']') {
    out += '\\]';
    i++;
  }
  for (; i < glob.length && glob[i] !== ']'; i++) {
    const c = glob[i]!;
    out += c === '\\' ? `\\${glob[++i] ?? '\\'}` : c === '[' || c === '^' ? `\\${c}` : c;
  }
  if (i >= glob.length) return ['\\[', start];
  return [`${out}]`, i];
}

/** Translates a glob body (no leading `/`, no trailing `/`) to a regex source. */
export function globToRegexSource(glob: string, field = 'glob'): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
        if (atStart && atEnd) {
          if (i + 2 === glob.length) out += '.*';
          else {
            out += '(?:.*/)?';
            i += 2; // also consume the '/'
            continue;
          }
          i += 1;
          continue;
        }
      }
      out += '[^/]*';
      while (glob[i + 1] === '*') i++;
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const [src, end] = classToRegex(glob, i);
      out += src;
      i = end;
    } else if (c === '{') {
      depth++;
      out += '(?:';
    } else if (c === '}' && depth > 0) {
      depth--;
      out += ')';
    } else if (c === ',' && depth > 0) out += '|';
    else if (c === '\\') out += `\\${glob[++i] ?? '\\'}`.replace(/\\([A-Za-z0-9])/, '$1');
    else out += /[.+^$()|\\{}\]]/.test(c) ? `\\${c}` : c;
  }
  if (depth > 0) throw new WorkspaceSearchError(field, `unbalanced '{' in glob ${JSON.stringify(glob)}`);
  return out;
}

/** Compiles a glob (gitignore semantics). Throws `WORKSPACE_SEARCH` naming `field` when malformed. */
export function compileGlob(pattern: string, field = 'glob'): CompiledGlob {
  assertNoNul(pattern, field);
  boundBacktracking();
  let body = pattern;
  const dirOnly = body.length > 1 && body.endsWith('/');
  if (dirOnly) body = body.slice(0, -1);
  const anchored = body.includes('/');
  if (body.startsWith('/')) body = body.slice(1);
  const regex = new RegExp(`^${globToRegexSource(body, field)}$`);
  return { source: pattern, anchored, dirOnly, regex };
}

/** True when `rel` (relative to the glob's base) matches; `name` is its last component. */
export function globMatches(glob: CompiledGlob, rel: string, isDir: boolean): boolean {
  if (glob.dirOnly && !isDir) return false;
  if (glob.anchored) return glob.regex.test(rel);
  const cut = rel.lastIndexOf('/');
  return glob.regex.test(cut < 0 ? rel : rel.slice(cut + 1));
}

/**
 * A glob as a path would be written plainly: a leading `./` anchors it to its base (`./*.ts` is
 * `/*.ts`), and `//` or `/./` inside it is one `/`, as every other file tool reads a path. A class
 * (`[...]`) is left as it is.
 */
export function tidyGlob(pattern: string): string {
  let out = '';
  let i = 0;
  if (pattern.startsWith('./')) {
    while (pattern.startsWith('./', i)) {
      i += 2;
      while (pattern[i] === '/') i++;
    }
    out = '/';
  }
  for (; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      out += pattern.slice(i, i + 2);
      i++;
    } else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      const end = close < 0 ? pattern.length : close + 1;
      out += pattern.slice(i, end);
      i = end - 1;
    } else if (c === '/' && out.endsWith('/')) {
      // `//`: one separator.
    } else if (c === '.' && out.endsWith('/') && (pattern[i + 1] === '/' || i + 1 === pattern.length) && out !== '') {
      // `/./` (or a trailing `/.`): the folder itself.
      if (pattern[i + 1] === '/') i++;
    } else out += c;
  }
  return out === '' ? pattern : out;
}

const GLOB_CHARS = /[*?[{\\]/;

/**
 * A pattern as the model may write it, read against the folder it is relative to (`base`, inside
 * the workspace `root`, both absolute): an absolute path under `base` becomes the pattern anchored
 * there (`/ws/src/*.ts` is `/src/*.ts`); `..` is resolved where it follows plain names (`sub/../*.txt`
 * is `/*.txt`). Throws `WORKSPACE_PATH` (field `pattern`) for an absolute path outside `base`
 * whose first name is not in it (`/etc/*`: a leading `/` that anchors a pattern names a folder of
 * `base`, which `exists` tells), and for a `..` climbing above `base` or following a wildcard.
 */
export async function workspaceGlob(
  pattern: string,
  root: string,
  base: string,
  exists: (name: string) => Promise<boolean>,
): Promise<string> {
  let rest = pattern;
  let anchored = false;
  const at = base.endsWith('/') ? base : `${base}/`;
  if (rest.startsWith(at)) {
    rest = rest.slice(at.length);
    anchored = true;
  } else if (rest.startsWith('/')) {
    const first = rest.slice(1).split('/')[0] ?? '';
    if (first !== '' && !GLOB_CHARS.test(first) && !(await exists(first))) {
      const where = base === root ? 'the workspace' : 'path';
      throw new WorkspacePathError(
        'pattern',
        pattern,
        'absolute_outside',
        `is an absolute path outside ${where} (${base}); a pattern starting with / is anchored at ${where}, and '${first}' is not in it`,
      );
    }
  }
  if (!rest.split('/').includes('..')) return anchored ? `/${rest}` : rest;
  const out: string[] = [];
  // `.` is the folder itself: it is no name a `..` could climb back out of.
  for (const seg of rest.split('/').filter((x) => x !== '.')) {
    if (seg !== '..') {
      out.push(seg);
      continue;
    }
    const last = out.pop();
    if (last === undefined || last === '' || GLOB_CHARS.test(last))
      throw new WorkspacePathError(
        'pattern',
        pattern,
        'escapes_root',
        last === undefined || last === ''
          ? 'climbs above the folder it is relative to with ..; give path for another folder'
          : `climbs with .. after '${last}', which is not a plain name`,
      );
  }
  // A pattern that had a folder in it stays anchored where it started.
  const joined = out.join('/');
  return joined.startsWith('/') ? joined : `/${joined}`;
}
