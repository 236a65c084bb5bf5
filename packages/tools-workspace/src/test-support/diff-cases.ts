/**
 * Test cases (not built, not exported) for the unified diff: ordinary changes whose diffs were
 * captured as fixtures before the diff was made to work on the changed span only, so the
 * fixtures hold what it printed then, byte for byte.
 */

/** One change: the path, the text before (`undefined`: created) and after (`undefined`: deleted). */
export interface DiffCase {
  readonly name: string;
  readonly before: string | undefined;
  readonly after: string | undefined;
}

/** A seeded pseudo-random generator (mulberry32), so the cases are the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const numbered = (n: number, eol = '\n', word = 'line'): string[] =>
  Array.from({ length: n }, (_, i) => `${word} ${i + 1}${eol}`);

/** `lines` with random lines replaced, deleted and inserted, drawn from a small alphabet (many equal lines). */
function scramble(seed: number, count: number, edits: number, alphabet: readonly string[]): [string, string] {
  const rnd = random(seed);
  const pick = (): string => alphabet[Math.floor(rnd() * alphabet.length)]!;
  const a = Array.from({ length: count }, pick);
  const b = [...a];
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rnd() * (b.length + 1));
    const r = rnd();
    if (r < 0.35 && b.length > 0) b.splice(Math.min(at, b.length - 1), 1);
    else if (r < 0.7) b.splice(at, 0, pick());
    else if (b.length > 0) b[Math.min(at, b.length - 1)] = pick();
  }
  return [a.join(''), b.join('')];
}

/** The cases: small edits, additions and removals at either end, CRLF, CR-only, no final newline, empty files, rewrites. */
export function diffCases(): DiffCase[] {
  const ten = numbered(10);
  const hundred = numbered(100);
  const crlf = numbered(12, '\r\n');
  const replaceAt = (ls: readonly string[], at: number, line: string): string[] =>
    ls.map((l, i) => (i === at ? line : l));
  const cases: DiffCase[] = [
    { name: 'equal', before: ten.join(''), after: ten.join('') },
    { name: 'one line changed in the middle', before: ten.join(''), after: replaceAt(ten, 4, 'changed\n').join('') },
    { name: 'first line changed', before: ten.join(''), after: replaceAt(ten, 0, 'changed\n').join('') },
    { name: 'second line changed', before: ten.join(''), after: replaceAt(ten, 1, 'changed\n').join('') },
    { name: 'last line changed', before: ten.join(''), after: replaceAt(ten, 9, 'changed\n').join('') },
    {
      name: 'two edits far apart',
      before: hundred.join(''),
      after: replaceAt(replaceAt(hundred, 10, 'x\n'), 80, 'y\n').join(''),
    },
    {
      name: 'two edits seven lines apart (one hunk)',
      before: hundred.join(''),
      after: replaceAt(replaceAt(hundred, 40, 'x\n'), 47, 'y\n').join(''),
    },
    {
      name: 'two edits eight lines apart (two hunks)',
      before: hundred.join(''),
      after: replaceAt(replaceAt(hundred, 40, 'x\n'), 48, 'y\n').join(''),
    },
    { name: 'lines added at the start', before: ten.join(''), after: `new 1\nnew 2\n${ten.join('')}` },
    { name: 'lines added at the end', before: ten.join(''), after: `${ten.join('')}new 1\nnew 2\n` },
    { name: 'lines removed at the start', before: ten.join(''), after: ten.slice(3).join('') },
    { name: 'lines removed at the end', before: ten.join(''), after: ten.slice(0, 7).join('') },
    {
      name: 'lines inserted in the middle',
      before: ten.join(''),
      after: [...ten.slice(0, 5), 'a\n', 'b\n', ...ten.slice(5)].join(''),
    },
    { name: 'CRLF file, one line changed', before: crlf.join(''), after: replaceAt(crlf, 6, 'changed\r\n').join('') },
    { name: 'CRLF file, one line end made LF', before: crlf.join(''), after: replaceAt(crlf, 6, 'line 7\n').join('') },
    { name: 'CRLF file, line added at the end', before: crlf.join(''), after: `${crlf.join('')}more\r\n` },
    { name: 'CR-only file, one line changed', before: 'a\rb\rc\rd\r', after: 'a\rB\rc\rd\r' },
    { name: 'CR inside a line', before: 'one\ntwo\nthree\n', after: 'one\nt\rwo\nthree\n' },
    { name: 'no final newline, last line changed', before: 'a\nb\nc', after: 'a\nb\nC' },
    { name: 'final newline added', before: 'a\nb\nc', after: 'a\nb\nc\n' },
    { name: 'final newline removed', before: 'a\nb\nc\n', after: 'a\nb\nc' },
    { name: 'line added after a last line without newline', before: 'a\nb', after: 'a\nb\nc' },
    { name: 'single line without newline changed', before: 'x', after: 'y' },
    { name: 'empty file filled', before: '', after: 'a\nb\n' },
    { name: 'file emptied', before: 'a\nb\n', after: '' },
    { name: 'empty to empty', before: '', after: '' },
    { name: 'created', before: undefined, after: 'a\nb\nc\n' },
    { name: 'created empty', before: undefined, after: '' },
    { name: 'deleted', before: 'a\nb\nc\n', after: undefined },
    { name: 'blank lines only', before: '\n\n\n\n', after: '\n\n\n\n\n\n' },
    { name: 'repeated lines, one removed', before: 'a\n'.repeat(10), after: 'a\n'.repeat(9) },
    { name: 'repeated lines, one changed', before: 'a\n'.repeat(10), after: `${'a\n'.repeat(6)}b\n${'a\n'.repeat(3)}` },
    { name: 'unicode lines', before: 'café\nnaïve\n日本\n', after: 'café\nnaïve\n中文\n🙂\n' },
    { name: 'whole rewrite, small', before: ten.join(''), after: numbered(8, '\n', 'other').join('') },
    {
      name: 'whole rewrite past 2000 edits (one replacement)',
      before: numbered(1500).join(''),
      after: numbered(1500, '\n', 'other').join(''),
    },
    { name: 'created, 3000 lines', before: undefined, after: numbered(3000).join('') },
    { name: 'long diff cut at 16 KiB', before: numbered(2000).join(''), after: numbered(2000, '\n', 'LINE').join('') },
  ];
  const alphabet = ['a\n', 'b\n', 'c\n', '\n', '}\n', 'return x;\n'];
  for (let seed = 1; seed <= 12; seed++) {
    const [before, after] = scramble(seed, 40 + seed * 25, 1 + seed * 3, alphabet);
    cases.push({ name: `scrambled ${seed}`, before, after });
  }
  const [before, after] = scramble(99, 5000, 150, ['x\n', 'y\n', 'z\n', 'w\n', 'v\n', 'u\n', 't\n']);
  cases.push({ name: 'scrambled 5000 lines, 150 edits', before, after });
  return cases;
}
