// A write's diagnostics while the project reads a file outside the workspace: `read` refuses that
// file, and withholding the messages is not enough, since a model-written file can test the
// file's text one character per line at the type level and read it back from which lines carry
// errors. So such a project's diagnostics (on write, `lsp diagnostics`, the project checker) show
// only syntax errors and do not tell whether anything else was introduced, saying why; a project
// that reads only its own files answers in full.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LspResource, openLspResource } from '../src/lsp.js';
import { type Caller, governed, writeTree } from './lsp-deny-support.js';

const SECRET = 'QZ';
const ALPHABET = ['Q', 'X', 'Z'];
let top: string;
let lsp: LspResource;

/**
 * A file testing each character of `S` (imported from `from`) against each of {@link ALPHABET}, one per line (each
 * line's message its own, by `tag`: a run reports a message once).
 */
function oracle(from: string, tag: string, syntaxError = false): string {
  const lines = [
    `import { S } from '${from}';`,
    "type CharAt<T extends string, I extends number, A extends unknown[] = []> = A['length'] extends I ? (T extends `${infer H}${string}` ? H : '') : T extends `${string}${infer R}` ? CharAt<R, I, [...A, 0]> : '';",
  ];
  for (let i = 0; i < SECRET.length; i++)
    for (const c of ALPHABET)
      lines.push(
        `export const v_${i}_${c}: CharAt<typeof S, ${i}> extends '${c}' ? '${tag}_${i}_${c}' : 'miss' = 'miss';`,
      );
  if (syntaxError) lines.push('export const broken = ;');
  return `${lines.join('\n')}\n`;
}

/** The lines of `text` that report an error in `file`. */
const errorLines = (text: string, file: string): string[] =>
  [...text.matchAll(new RegExp(`${file.replace('.', '\\.')}:(\\d+): error`, 'g'))].map((m) => m[1]!);

function project(name: string, files: Record<string, string> = {}): Caller {
  const dir = join(top, name);
  writeTree(dir, {
    'package.json': '{"name":"p"}\n',
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] } }),
    'a.ts': 'export const a = 1;\n',
    ...files,
  });
  return governed(dir, lsp, {});
}

beforeAll(() => {
  top = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-lsp-oracle-')));
  writeTree(top, { 'out/s.ts': `export const S = "${SECRET}" as const;\n` });
  lsp = openLspResource();
});

afterAll(async () => {
  await lsp.close();
  rmSync(top, { recursive: true, force: true });
});

describe('diagnostics of a project reading a file outside the workspace', () => {
  it('LSP-05: the oracle write, diagnostics, code actions and the checker give no per-line signal, only syntax errors and why', async () => {
    const call = project('outside');
    const outside = join(top, 'out', 's');
    const w = await call('write', { file_path: 'a.ts', content: oracle(outside, 'hit', true) });
    const why = `reads ${join(top, 'out', 's.ts')}, outside the workspace`;
    expect(w.output).toContain(
      `Diagnostics not shown for a.ts (but for syntax errors): the typescript server's project ${why}`,
    );
    // Only the syntax error, on the last line; none of the lines testing a character.
    expect(errorLines(w.output, 'a.ts')).toEqual([String(3 + SECRET.length * ALPHABET.length)]);
    expect(JSON.stringify(w.metadata)).not.toContain('typescript2322');
    const d = await call('lsp', { operation: 'diagnostics', file: 'a.ts' });
    expect(errorLines(d.output, 'a.ts')).toEqual([String(3 + SECRET.length * ALPHABET.length)]);
    expect(d.output).toContain(why);
    // Without the syntax error the answer is the same note, whatever the lines test.
    const clean = await call('write', { file_path: 'a.ts', content: oracle(outside, 'hit') });
    expect(errorLines(clean.output, 'a.ts')).toEqual([]);
    expect(clean.output).toContain('Diagnostics not shown for a.ts');
    // Which fixes the server offers on a line tells whether the line carries an error.
    const actions = await call('lsp', { operation: 'code_actions', file: 'a.ts', line: 3, symbol: 'v_0_Q' });
    expect(actions.output).toContain(`Code actions not shown for a.ts:3: the typescript server's project ${why}`);
    const checker = await call('lsp', { operation: 'diagnostics', file: '*' });
    expect(checker.output).toContain('== typescript (exit null) ==');
    expect(checker.output).toContain(`(problems not shown: the typescript server's project ${why}`);
    expect(checker.output).not.toMatch(/TS2322/);
  }, 60_000);

  it('a project reading only its own files answers in full', async () => {
    const call = project('own', { 'lib/s.ts': `export const S = "${SECRET}" as const;\n` });
    const w = await call('write', { file_path: 'a.ts', content: oracle('./lib/s', 'own') });
    // The lines whose character matches carry the error, with its message: Q first, Z second.
    expect(errorLines(w.output, 'a.ts')).toEqual(['3', '8']);
    expect(w.output).toContain(`Type '"miss"' is not assignable to type '"own_0_Q"'`);
    expect(w.output).not.toContain('Diagnostics not shown');
  }, 60_000);
});
