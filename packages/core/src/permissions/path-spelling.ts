/**
 * The canonical spelling of a file path a rule pattern sees: relative to the workspace root,
 * with `.`, empty segments and `..` resolved lexically, so `./secret/x`, `a/../secret/x`,
 * `secret//x` and `<root>/secret/x` are all `secret/x`. Backslashes are left alone (on POSIX they
 * are part of a file name).
 */

/**
 * `path` relative to `root`, lexically normalised (`.` for the root itself), or `undefined` when
 * it cannot be known: an absolute path with no root given, or outside it, or one whose `..`
 * leaves the root.
 */
export function canonicalPath(path: string, root?: string): string | undefined {
  let rel = path;
  if (rel.startsWith('/')) {
    if (root === undefined || !root.startsWith('/')) return undefined;
    // `/up/./root/x` and `/up/y/../root/x` are `/up/root/x`: compared with the root once resolved.
    const absolute = lexical(rel);
    const base = lexical(root);
    if (absolute === undefined || base === undefined) return undefined;
    if (absolute !== base && !absolute.startsWith(base === '/' ? '/' : `${base}/`)) return undefined;
    rel = absolute.slice(base.length);
  }
  const out: string[] = [];
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.length === 0 ? '.' : out.join('/');
}

/**
 * The spellings of one path a rule may match: `[canonical, <root>/canonical]` when the canonical
 * path is known (the spellings an allow rule may cover), else `[path]` as given.
 */
export function canonicalSpellings(path: string, root?: string): string[] {
  const canonical = canonicalPath(path, root);
  if (canonical === undefined) return [path];
  if (root === undefined || !root.startsWith('/')) return [canonical];
  const base = root.replace(/\/+$/, '');
  return [canonical, canonical === '.' ? base : `${base}/${canonical}`];
}

// An absolute path with `.`, `..` and repeated slashes resolved by its text; `undefined` above `/`.
function lexical(absolute: string): string | undefined {
  const out: string[] = [];
  for (const seg of absolute.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return `/${out.join('/')}`;
}
