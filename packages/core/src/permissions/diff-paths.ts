/**
 * The file names a unified diff names, read as the `patch` tool reads them: the `---`/`+++`
 * headers (without their `a/`/`b/` prefix) and git's `rename from`/`rename to` and
 * `copy from`/`copy to` lines, with git's quoting undone (`"caf\303\251.txt"`: double quotes,
 * C escapes, octal escapes for the bytes of a UTF-8 name).
 */

const C_ESCAPES: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13 };

/**
 * A name as git writes it in a diff: bare (returned as is), or in double quotes with C escapes
 * (`\n`, `\t`, `\"`, `\\`, `\ooo` bytes, and `\uXXXX`). `undefined` for a quoted name that ends
 * inside an escape.
 */
export function unquoteDiffPath(raw: string): string | undefined {
  if (!(raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"'))) return raw;
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  const body = raw.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '\\') {
      const cp = body.codePointAt(i)!;
      if (cp > 0xffff) i++;
      bytes.push(...encoder.encode(String.fromCodePoint(cp)));
      continue;
    }
    const d = body[++i];
    if (d === undefined) return undefined;
    const oct = /^[0-3][0-7]{2}/.exec(body.slice(i, i + 3))?.[0];
    const hex = d === 'u' ? /^[0-9a-fA-F]{4}/.exec(body.slice(i + 1, i + 5))?.[0] : undefined;
    if (oct !== undefined) {
      bytes.push(Number.parseInt(oct, 8));
      i += 2;
    } else if (hex !== undefined) {
      bytes.push(...encoder.encode(String.fromCharCode(Number.parseInt(hex, 16))));
      i += 4;
    } else if (C_ESCAPES[d] !== undefined) bytes.push(C_ESCAPES[d]);
    else bytes.push(...encoder.encode(d));
  }
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

/** Every file name a diff's headers and git rename/copy lines name (`/dev/null` left out). */
export function diffPaths(diff: string): string[] {
  const out: string[] = [];
  for (const m of diff.matchAll(/^(?:(?:---|\+\+\+) (.+?)(?:\t.*)?|(?:rename|copy) (?:from|to) (.+?))\r?$/gm)) {
    const header = m[1] !== undefined;
    const raw = (m[1] ?? m[2]!).trim();
    if (raw === '/dev/null') continue;
    const p = unquoteDiffPath(raw) ?? raw;
    out.push(header && /^[ab]\//.test(p) ? p.slice(2) : p);
  }
  return out;
}
