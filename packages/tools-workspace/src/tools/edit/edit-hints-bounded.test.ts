/**
 * The hints of a failed `edit` (closest lines, near-match): on a normal file exactly what they
 * were (captured from the earlier code as fixtures); on a file past the hint limit, looked for in
 * its first lines only, saying so, so the failure comes back quickly and in bounded memory.
 * Real files, generated.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { call, tempDir } from '../../test-support/harness.js';
import { similarity } from './edit-candidates.js';
import { editTool } from './edit-tool.js';

/** Characters of a file the hints look at (`MAX_HINT_CHARS`). */
const MAX_HINT_CHARS = 4 * 1024 * 1024;

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(() => tmp.cleanup());

interface Failure {
  readonly output: string;
  readonly details: Record<string, unknown>;
}

async function failure(file: string, old_string: string): Promise<Failure> {
  const r = await call(editTool, ws, { file_path: file, old_string, new_string: 'X' });
  expect(r.exitCode).toBe(1);
  const error = (r.metadata as { error: { code: string; details: Record<string, unknown> } }).error;
  expect(error.code).toBe('EDIT_NOT_FOUND');
  return { output: r.output, details: error.details };
}

const SOURCE = [
  'import { readFile } from "node:fs/promises";',
  '',
  'export async function loadConfig(path: string): Promise<Config> {',
  '  const text = await readFile(path, "utf8");',
  '  const parsed = JSON.parse(text) as Partial<Config>;',
  '  return { ...DEFAULTS, ...parsed };',
  '}',
  '',
  'export function saveConfig(path: string, config: Config): Promise<void> {',
  '\treturn writeFile(path, JSON.stringify(config, null, 2));',
  '}',
  'const café = "naïve";   ',
  'const x = 1;\r',
  '',
].join('\n');

const MISSES = [
  'export async function loadConfg(path: string): Promise<Config> {',
  '  const parsed = JSON.parse(txt) as Config;\n  return parsed;',
  'export function saveConfig(path: string, config: Config): Promise<void> {\n  return writeFile(path, JSON.stringify(config, null, 2));\n}',
  'const cafe\u0301 = "nai\u0308ve";',
  'const café = "naïve";\nconst x = 1;',
  'zzzz qqqq',
  '   \n  const text = await readFile(path);',
];

/** Minimum of two timings of `f`, in ms. */
function fastest(f: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 2; i++) {
    const t = performance.now();
    f();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

/** The Dice coefficient of two strings' bigrams as it was computed, with a map of bigram strings per string. */
function diceByMaps(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const grams = (s: string): Map<string, number> => {
    const m = new Map<string, number>();
    for (let i = 0; i < s.length - 1; i++) m.set(s.slice(i, i + 2), (m.get(s.slice(i, i + 2)) ?? 0) + 1);
    return m;
  };
  const [x, y] = [grams(a), grams(b)];
  let shared = 0;
  for (const [g, n] of x) shared += Math.min(n, y.get(g) ?? 0);
  return (2 * shared) / (a.length - 1 + b.length - 1);
}

describe('the hints of a failed edit', () => {
  it('score lines exactly as the bigram maps did', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'ab', ' ', '\t', 'é', '😀', '\u0301'), maxLength: 40 });
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(similarity(a, b)).toBe(diceByMaps(a, b));
      }),
      { numRuns: 3000 },
    );
  });

  it('on a normal file: the same closest lines, near-matches and messages as before (captured fixtures)', async () => {
    writeFileSync(join(tmp.dir, 'config.ts'), SOURCE);
    const captured = JSON.parse(
      readFileSync(new URL('./edit-hints.fixtures.json', import.meta.url), 'utf8'),
    ) as Failure[];
    const now: Failure[] = [];
    for (const miss of MISSES) now.push(await failure('config.ts', miss));
    expect(now).toEqual(captured);
  });

  it('on a file past the hint limit: quickly, in bounded memory, among its first lines, saying so', async () => {
    const needle = 'const handler = async (req, res) => { return res.json({ ok: true }); }';
    // Distinct 80-character lines, about 24 MB; a line like the needle near the start and, past
    // the limit, one nearer still and the needle itself with other indentation.
    const lines = Array.from({ length: 300_000 }, (_, i) =>
      `line ${i} ${'x'.repeat(60)} ${String(i * 7919).padStart(8, '0')}`.slice(0, 79),
    );
    lines[10] = 'const handler = async (req, res) => { return res.json({ ok: false, n: 1 }); }';
    lines[299_990] = 'const handler = async (req, res) => { return res.json({ ok: false }); }';
    lines[299_995] = `\t${needle}`;
    const content = `${lines.join('\n')}\n`;
    expect(content.length).toBeGreaterThan(5 * MAX_HINT_CHARS);
    writeFileSync(join(tmp.dir, 'big.txt'), content);
    // What reading the file and splitting it into lines once costs on this machine, just before and after.
    const readAndSplit = (): unknown => readFileSync(join(tmp.dir, 'big.txt'), 'utf8').split('\n');
    let once = fastest(readAndSplit);
    const peakBefore = process.resourceUsage().maxRSS;
    const started = performance.now();
    const r = await failure('big.txt', `  ${needle}`);
    const elapsed = performance.now() - started;
    const peakGrowth = (process.resourceUsage().maxRSS - peakBefore) * 1024;
    once = Math.max(once, fastest(readAndSplit));
    // Scoring every line and normalising the whole file took twenty to fifty times as long as this;
    // a loose bound, as the time of one test on a busy machine varies.
    expect(elapsed).toBeLessThan(20 * once);
    // The peak memory grew by four times the file's size before (and the process as a whole used nine
    // times it); now by little more than nothing past what writing and reading the file here took.
    expect(peakGrowth).toBeLessThan(2 * content.length);
    const first = content.slice(0, MAX_HINT_CHARS).split('\n').length - 1;
    expect(r.output).toMatch(/^big\.txt: old_string not found\. Closest lines among its first \d+ lines/);
    expect(r.output).toContain(
      `among its first ${first} lines (the file is larger than ${MAX_HINT_CHARS} characters, so only those were compared; grep finds text in the rest):\n  line 11: ${lines[10]}`,
    );
    expect(r.details).toMatchObject({ hints_first_lines: first, candidates: [{ line: 11 }] });
    expect(r.details.near).toBeUndefined();
  });

  it('within the limit of a large file: its near-match is still named', async () => {
    const lines = Array.from({ length: 80_000 }, (_, i) => `row ${i} ${'y'.repeat(70)}`);
    lines[20] = '\tif (ready) {';
    lines[21] = '\t\tstart();';
    const content = `${lines.join('\n')}\n`;
    expect(content.length).toBeGreaterThan(MAX_HINT_CHARS);
    writeFileSync(join(tmp.dir, 'near.txt'), content);
    const r = await failure('near.txt', 'if (ready) {\n    start();');
    expect(r.details).toMatchObject({ near: { line: 21, difference: 'whitespace' } });
    expect(r.output).toContain('The file has it at line 21 differing only in indentation');
  });
});
