// The project checker of `diagnostics "*"` writes nothing, whatever the model-written project
// configuration says: tsc honours `incremental`/`composite` with `tsBuildInfoFile` (even under
// --noEmit) and `generateTrace` from tsconfig.json and the files it extends, which would let a
// model that may only `write` and use `lsp` overwrite a file outside the workspace, the
// repository's `.git/config` or the agent's own configuration.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LspResource, openLspResource } from '../src/lsp.js';
import { type Caller, governed, writeTree } from './lsp-deny-support.js';

let top: string;
let lsp: LspResource;
const VICTIM = 'precious user data\n';

/** Every file and folder under `dir` with its size and content, to tell that nothing changed. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        out.set(`${p}/`, '');
        walk(p);
      } else out.set(p, `${statSync(p).mtimeMs}:${readFileSync(p, 'utf8')}`);
    }
  };
  walk(dir);
  return out;
}

/** A git repository under `top` named `name` with `files`, and a caller on it. */
function project(name: string, files: Record<string, string>): { dir: string; call: Caller } {
  const dir = join(top, name);
  writeTree(dir, { 'package.json': '{"name":"p"}\n', 'a.ts': 'export const a: number = "x";\n', ...files });
  execFileSync('git', ['init', '-q', dir]);
  return { dir, call: governed(dir, lsp, {}) };
}

beforeAll(() => {
  top = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-lsp-checker-writes-')));
  writeTree(top, { 'outside/notes.txt': VICTIM });
  lsp = openLspResource();
});

afterAll(async () => {
  await lsp.close();
  rmSync(top, { recursive: true, force: true });
});

describe('the TypeScript project checker writes nothing the configuration names', () => {
  const info = (to: string) => ({ incremental: true, tsBuildInfoFile: to });
  // Each case: its name, its files, and whether its problems are shown (else its configuration
  // names a path outside, and the checker's answer says why none is shown).
  const cases: [string, (outside: string) => Record<string, string>, boolean][] = [
    [
      'build info outside the workspace',
      (o) => ({ 'tsconfig.json': JSON.stringify({ compilerOptions: info(o) }) }),
      false,
    ],
    [
      'build info over .git/config',
      () => ({ 'tsconfig.json': JSON.stringify({ compilerOptions: info('.git/config') }) }),
      true,
    ],
    [
      'build info over a3s.config.json, composite',
      () => ({
        'a3s.config.json': '{}\n',
        'tsconfig.json': JSON.stringify({ compilerOptions: { composite: true, tsBuildInfoFile: 'a3s.config.json' } }),
      }),
      true,
    ],
    [
      'an extends chain with composite, build info and a trace, and a reference',
      (o) => ({
        'tsconfig.json': JSON.stringify({ extends: './cfg/base.json', references: [{ path: './sub' }] }),
        'cfg/base.json': JSON.stringify({ extends: './deeper.json', compilerOptions: { composite: true } }),
        'cfg/deeper.json': JSON.stringify({
          compilerOptions: { incremental: true, tsBuildInfoFile: o, generateTrace: join(top, 'outside', 'trace') },
        }),
        'sub/tsconfig.json': JSON.stringify({ compilerOptions: { composite: true, tsBuildInfoFile: `${o}.sub` } }),
        'sub/b.ts': 'export const b = 1;\n',
      }),
      false,
    ],
  ];
  for (const [name, files, shown] of cases) {
    it(`${name}: nothing written, the problems still answered`, async () => {
      const p = project(name.replace(/\W+/g, '-'), files(join(top, 'outside', 'notes.txt')));
      const before = snapshot(top);
      const r = await p.call('lsp', { operation: 'diagnostics', file: '*' });
      expect(r.exitCode, r.output).toBe(0);
      if (shown) expect(r.output).toMatch(/a\.ts\(1,14\): error TS2322/);
      else expect(r.output).toMatch(/\(problems not shown: .* outside the workspace/);
      expect(readFileSync(join(top, 'outside', 'notes.txt'), 'utf8')).toBe(VICTIM);
      expect(snapshot(top)).toEqual(before);
    }, 60_000);
  }
});
