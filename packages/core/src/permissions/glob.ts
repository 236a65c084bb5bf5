/**
 * The glob dialect of permission rules: `*` matches within one path segment (never `/`; in a
 * command rule any text), `**` matches across segments, `?` matches one character other than `/`, and a trailing `:*` turns
 * the pattern into a prefix match (`npm run:*` matches `npm run test`). Everything else is
 * literal. Patterns are anchored at both ends.
 */

const SPECIAL = /[.+^${}()|[\]\\]/g;

function globBody(glob: string, anySlash: boolean): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*' && anySlash) {
      while (glob[i + 1] === '*') i++;
      out += '.*';
    } else if (c === '*') {
      if (glob[i + 1] === '*') {
        // `**/` also matches zero segments, so `src/**/x` matches `src/x`.
        if (glob[i + 2] === '/') {
          out += '(?:.*/)?';
          i += 2;
        } else {
          out += '.*';
          i += 1;
        }
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else {
      out += c.replace(SPECIAL, '\\$&');
    }
  }
  return out;
}

/**
 * Compiles a rule glob to an anchored regular expression. `ignoreCase` for tool names;
 * `anySlash` for command rules, whose `*` matches any text, `/` included (a command is no path:
 * `Bash(rm *)` must see `rm -rf /`).
 */
export function compileGlob(glob: string, ignoreCase = false, anySlash = false): RegExp {
  const flags = ignoreCase ? 'is' : 's';
  if (glob.endsWith(':*')) return new RegExp(`^${globBody(glob.slice(0, -2), anySlash)}.*$`, flags);
  // A command rule's trailing ` *` is also nothing at all: `git push *` matches `git push`, as `git push:*` does.
  const tail = anySlash ? / \*+$/.exec(glob) : null;
  if (tail !== null && tail.index > 0)
    return new RegExp(`^${globBody(glob.slice(0, tail.index), true)}(?: .*)?$`, flags);
  return new RegExp(`^${globBody(glob, anySlash)}$`, flags);
}
