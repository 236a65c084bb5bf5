/**
 * What a line of a fact log can look like, judged before it is taken for a fact or for a torn
 * write. The store writes every fact as `encodeFact(f)` (JSON.stringify: no whitespace, every
 * control character escaped) and a LF. So a complete line starts with `{` and ends with `}`, and
 * a torn write (a crash cut the last write short) is a prefix of such a line, possibly followed by
 * NUL bytes (a file system extends a file before its data reaches the disk). Anything else was
 * changed by something other than the store (an editor's CRLF line endings, CR-only line endings,
 * spaces, two lines joined) and is refused by name, never cut off as if a crash had left it.
 */
import { FactParseError } from './errors.js';

/** How every fact line begins (the store writes `{"seq":`; a log from elsewhere may order fields otherwise). */
const LINE_START = '{"';

/**
 * Throws unless the complete `line` (without its LF) is framed as the store writes it: `{` first
 * and `}` last, with no CR or whitespace around. Cheap: two character reads for a good line.
 */
export function checkLineFrame(line: string, lineNo: number): void {
  const last = line.charCodeAt(line.length - 1);
  const first = line.charCodeAt(0);
  // A byte-order mark is named by `parseFactLine`.
  if ((first === 123 && last === 125) || first === 0xfeff) return;
  if (last === 13) {
    throw new FactParseError(
      lineNo,
      'line',
      'ends with a carriage return (CRLF line endings); the store ends every line with LF only, so an editor or a copy changed the file; convert it back to LF line endings (e.g. `sed -i "s/\\r$//" <file>`) to open it',
    );
  }
  const trimmed = line.trim();
  if (trimmed.startsWith('{') && trimmed.endsWith('}')) {
    throw new FactParseError(
      lineNo,
      'line',
      'has whitespace before or after the fact; the store writes each fact as one JSON object with nothing around it, so the file was changed by something else',
    );
  }
}

/**
 * Why the unterminated last `tail` of a log (text after the last LF, not a fact) cannot be a
 * torn write, or `null` when it can: a prefix of a line the store writes, or such a prefix
 * followed by NUL bytes, or NUL bytes only.
 */
export function notTornBecause(tail: string): string | null {
  let end = tail.length;
  while (end > 0 && tail.charCodeAt(end - 1) === 0) end--;
  if (end === 0) return null;
  const text = end === tail.length ? tail : tail.slice(0, end);
  if (text.length < LINE_START.length ? !LINE_START.startsWith(text) : !text.startsWith(LINE_START)) {
    return `it does not begin as a fact does ('${LINE_START}')`;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) {
      return c === 13
        ? 'it holds a carriage return (CR line endings?): the store ends lines with LF only and escapes a CR inside text'
        : `it holds a raw control character (U+${c.toString(16).padStart(4, '0').toUpperCase()}) at column ${i + 1}, which the store always escapes`;
    }
  }
  // `}{"` never occurs in one JSON value (a quote inside a string is escaped): two facts joined.
  const joined = text.indexOf('}{"');
  if (joined >= 0) return `a fact ends at column ${joined + 1} and another begins without a line break`;
  // No proper prefix of a JSON object is JSON: a whole value was written complete, only not as a fact.
  if (end === tail.length && isJson(text)) return 'it is a complete JSON object, which no write cut short is';
  return null;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
