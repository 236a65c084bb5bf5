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

// A leading `/proc/self/root` (or `/proc/<pid>/root`): the file system root seen through a link.
const PROC_ROOT = /^\/+proc\/+(?:self|thread-self|\d+)\/+root(?:\/+|$)/;

/**
 * The path pattern of a file rule in the one spelling subjects are matched in: `./secret/**`,
 * `secret//x`, `a/./b` and `secret/` are `secret/**`, `secret/x`, `a/b` and `secret`; `//etc/x`
 * (an absolute path in another product's rule dialect) and `/proc/self/root/etc/x` are `/etc/x`; `~/x` is `x` in `home` (the
 * user's home folder, when given); `.` and `./` are `**` (the
 * whole workspace). A `..` after a literal segment is resolved; one that cannot be is kept (it
 * then matches nothing, as before). A trailing `:*` (prefix match) is kept.
 */
export function canonicalPathPattern(pattern: string, home?: string): string {
  const prefix = pattern.endsWith(':*');
  const written = prefix ? pattern.slice(0, -2) : pattern;
  // `~/.ssh/**` is under the home folder (as in a shell and other products' rules), not a workspace folder named `~`.
  const body =
    home?.startsWith('/') === true && (written === '~' || written.startsWith('~/'))
      ? `${home}${written.slice(1)}`
      : written;
  // `/proc/self/root/x` is `/x`: the root seen through the process's own root link.
  let rooted = body;
  while (PROC_ROOT.test(rooted)) rooted = rooted.replace(PROC_ROOT, '/');
  const absolute = rooted.startsWith('/');
  const out: string[] = [];
  for (const seg of rooted.split('/')) {
    if (seg === '' || seg === '.') continue;
    const last = out.at(-1);
    if (seg === '..' && last !== undefined && last !== '..' && !/[*?]/.test(last)) out.pop();
    else out.push(seg);
  }
  const joined = `${absolute ? '/' : ''}${out.join('/')}`;
  const canonical = joined === '' ? '**' : joined;
  return prefix ? `${canonical}:*` : canonical;
}

/**
 * `path` and the folders that hold it (`a/b/c`, `a/b`, `a`; `/x/y`, `/x`): a deny or ask rule
 * naming a folder covers every file in it.
 */
export function withAncestors(path: string): string[] {
  const out = [path];
  for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1)) out.push(path.slice(0, cut));
  return out;
}
