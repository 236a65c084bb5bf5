/**
 * Where a value sits in a JSON text: line and column (1-based) of the value at a key path
 * (`['vibe', 'tiers', 'fast']`), or of the property name when the path ends at an unknown key, for
 * config errors a person can jump to. Runs only on text `JSON.parse` accepted, after validation failed.
 */

/** A 1-based position in a text (column in UTF-16 code units). */
export interface JsonPosition {
  readonly line: number;
  readonly column: number;
}

function positionOf(text: string, at: number): JsonPosition {
  const before = text.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: at - lineStart + 1 };
}

/**
 * The position of the value at `path` in the JSON `text`, or of the last key when `atKey` (an unknown
 * key), or `undefined` when the path is not in the text (or the text is not JSON). A repeated key
 * counts by its last occurrence, as `JSON.parse` does.
 */
export function jsonPathPosition(text: string, path: readonly PropertyKey[], atKey = false): JsonPosition | undefined {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  // Walks one value, returning where the path ends inside it; `depth` is how much of `path` leads
  // here (`-1` once off the path).
  const value = (depth: number): number | undefined => {
    ws();
    let hit = depth === path.length && !atKey ? i : undefined;
    const want = depth === -1 || depth >= path.length ? undefined : path[depth];
    const ch = text[i];
    if (ch === '{') {
      i++;
      for (;;) {
        ws();
        if (text[i] !== '"') break;
        const keyAt = i;
        const key = string();
        ws();
        i++; // ':'
        const on = want !== undefined && key === String(want);
        const inner = value(on ? depth + 1 : -1);
        // A later repeat of the key wins, as with JSON.parse.
        if (on) hit = atKey && depth === path.length - 1 ? keyAt : (inner ?? hit);
        ws();
        if (text[i] === ',') i++;
      }
      i++;
      return hit;
    }
    if (ch === '[') {
      i++;
      for (let index = 0; ; index++) {
        ws();
        if (text[i] === ']' || i >= text.length) break;
        const inner = value(want === index ? depth + 1 : -1);
        if (want === index) hit = inner;
        ws();
        if (text[i] === ',') i++;
      }
      i++;
      return hit;
    }
    if (ch === '"') string();
    else {
      const m = /^(?:true|false|null|-?[0-9.eE+-]+)/.exec(text.slice(i, i + 64));
      i += m === null ? 1 : m[0].length;
    }
    return hit;
  };
  const at = value(0);
  return at === undefined ? undefined : positionOf(text, at);
}
