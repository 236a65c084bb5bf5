/**
 * File names that are not valid UTF-8. Each byte that starts no valid UTF-8 sequence is spelt as
 * the lone surrogate U+DC80–U+DCFF (U+DC00 plus the byte, as Python's `surrogateescape` does), so
 * such a name is told apart from every valid name (a valid name never holds a lone surrogate, and
 * the byte is not lost as U+FFFD would lose it); tool output shows it as a JSON string, e.g.
 * `"f\udcff.txt"`. The file tools refuse such a path as an argument rather than open a different
 * file: a lone surrogate cannot be passed to the operating system as the byte it stands for.
 */

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Bytes of the valid UTF-8 sequence starting at `i`, or 0. */
function sequenceAt(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (n <= 1 || i + n > bytes.length) return n === 1 ? 1 : 0;
  try {
    strict.decode(bytes.subarray(i, i + n));
    return n;
  } catch {
    return 0;
  }
}

/** A name (or path) from its bytes: UTF-8, with each byte that is not part of valid UTF-8 as U+DC00 + byte. */
export function nameFromBytes(bytes: Uint8Array, start = 0, end = bytes.length): string {
  const part = bytes.subarray(start, end);
  try {
    return strict.decode(part);
  } catch {
    let out = '';
    for (let i = 0; i < part.length; ) {
      const n = sequenceAt(part, i);
      if (n === 0) {
        out += String.fromCharCode(0xdc00 + part[i]!);
        i++;
      } else {
        out += strict.decode(part.subarray(i, i + n));
        i += n;
      }
    }
    return out;
  }
}

/** Where `text` has a lone UTF-16 surrogate (an escaped byte, or half of a character), or -1. */
export function loneSurrogateAt(text: string): number {
  const m = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(text);
  return m === null ? -1 : m.index;
}

/** True when `name` holds a lone surrogate: a name no file tool can open (see the module notes). */
export function hasUnopenableName(name: string): boolean {
  return loneSurrogateAt(name) >= 0;
}
