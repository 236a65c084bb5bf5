// The lsp tools under read deny rules, attacked from outside: a model that may not read
// `secret/**` asks the real typescript-language-server and pyright about visible files that use
// the denied ones. Every answer that could carry a denied file's text (a hover's type, a
// diagnostic's message, a code action's title, the project checker's output) is withheld while
// the server's project reads a denied file; locations in denied files are left out; an edit that
// would touch one is refused whole. The same calls under a rule hiding no source file show the
// secret, so the rules are what hides it. One server per language for the whole file.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LspResource, openLspResource } from '../src/lsp.js';
import { type Caller, governed, writeTree } from './lsp-deny-support.js';

const TS_SECRET = 'sk-live-123';
const PY_SECRET = 'pw-py-777';
const FILES: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { target: 'es2022', lib: ['es2022'], module: 'commonjs', strict: true, noEmit: true, types: [] },
    include: ['src', 'secret'],
  }),
  'secret/k.ts': `import { PUBLIC_NAME } from '../src/public';\n/** The live key. */\nexport const API_KEY = '${TS_SECRET}';\nexport interface Vault {\n  pin: 4321;\n}\nexport const named = PUBLIC_NAME;\n`,
  'src/public.ts': "export const PUBLIC_NAME = 'visible-name';\n",
  'src/use.ts':
    "import { API_KEY, type Vault } from '../secret/k';\nexport const size = API_KEY.length;\nexport declare const v: Vault;\n",
  'src/alias.ts': "import { API_KEY } from '../secret/k';\nconst copied = API_KEY;\nexport const shown = copied;\n",
  'src/bad.ts': "import { API_KEY } from '../secret/k';\nexport const n: 1 = API_KEY;\n",
  'src/typo.ts': "import * as k from '../secret/k';\nexport const x = k.API_KY;\n",
  // Outside the tsconfig's `include`: the server holds it in a project of its own.
  'other/a.ts': "export const LIT = 'plain-literal';\nexport const k: 1 = LIT;\n",
  'py/pyproject.toml': '[project]\nname = "x"\nversion = "0"\n',
  'py/secret/cfg.py': `from typing import Final\n\nDB_PASSWORD: Final = "${PY_SECRET}"\n`,
  'py/app.py': 'from secret.cfg import DB_PASSWORD\n\nalias = DB_PASSWORD\nn: int = DB_PASSWORD\n',
  '.env': 'TOKEN=1\n',
};
const DENY = { deny: ['Read(secret/**)', 'Read(py/secret/**)'] };
/** A rule hiding no source file: every answer shows in full. */
const CONTROL = { deny: ['Read(.env)'] };

let dir: string;
let lsp: LspResource;
let ask: Caller;
let control: Caller;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-lsp-deny-')));
  writeTree(dir, FILES);
  symlinkSync(join(dir, 'secret'), join(dir, 'vault'));
  lsp = openLspResource();
  ask = governed(dir, lsp, DENY);
  control = governed(dir, lsp, CONTROL);
});
afterAll(async () => {
  await lsp.close();
  rmSync(dir, { recursive: true, force: true });
});

const lspCall = (c: Caller, args: Record<string, unknown>) => c('lsp', args);

describe('lsp answers that could quote a denied file (TypeScript)', () => {
  it('hover on a name whose type comes from a denied file shows no type, naming the rule', async () => {
    const args = { operation: 'hover', file: 'src/alias.ts', line: 2, symbol: 'copied' };
    const open = await lspCall(control, args);
    expect(open.output).toContain(TS_SECRET);
    const r = await lspCall(ask, args);
    expect(r.output).not.toContain(TS_SECRET);
    expect(r.output).toContain('Read(secret/**)');
    expect(r.output).toContain('declared in a file this session may not read');
  });

  // The test workspace cannot keep files from a process, so the server reads the denied files:
  // whether it reports a problem could depend on them, and only syntax errors are shown.
  it('diagnostics of a visible file are not shown when the server could not be kept from a denied file; syntax errors stay whole', async () => {
    const open = await lspCall(control, { operation: 'diagnostics', file: 'src/bad.ts' });
    expect(open.output).toContain(TS_SECRET);
    const r = await lspCall(ask, { operation: 'diagnostics', file: 'src/bad.ts' });
    expect(r.output).toMatch(/^Diagnostics not shown for src\/bad\.ts \(but for syntax errors\): Read\(secret\/\*\*\)/);
    expect(r.output).not.toMatch(/typescript2322|src\/bad\.ts:2/);
    expect(r.metadata).toMatchObject({ diagnostics: [] });
    expect(JSON.stringify(r)).not.toContain(TS_SECRET);
    const typo = await lspCall(ask, { operation: 'diagnostics', file: 'src/typo.ts' });
    expect(JSON.stringify(typo)).not.toMatch(/API_KEY|secret\/k/);
    // A syntax error stops tsc before it checks types: the file is fixed on disk before the checker runs.
    writeTree(dir, { 'src/syntax.ts': "import { API_KEY } from '../secret/k';\nexport const z = (API_KEY;\n" });
    const syntax = await lspCall(ask, { operation: 'diagnostics', file: 'src/syntax.ts' });
    writeTree(dir, { 'src/syntax.ts': 'export const z = 1;\n' });
    expect(syntax.output).toContain("src/syntax.ts:2: error typescript1005: ')' expected.");
    expect(syntax.output).toContain(
      'Diagnostics not shown for src/syntax.ts (but for syntax errors): Read(secret/**) hides a file',
    );
  });

  it('code action titles that could name a denied declaration are withheld', async () => {
    const args = { operation: 'code_actions', file: 'src/typo.ts', line: 2, symbol: 'API_KY' };
    expect((await lspCall(control, args)).output).toContain("'API_KEY'");
    const r = await lspCall(ask, args);
    expect(JSON.stringify(r)).not.toContain('API_KEY');
    expect(r.output).toContain('Read(secret/**)');
  });

  it('a write whose server could not be kept from a denied file does not tell whether it introduced problems', async () => {
    const text = "import { API_KEY } from '../secret/k';\nexport const p: 1 = API_KEY;\n";
    const r = await ask('write', { file_path: 'src/probe.ts', content: text });
    expect(r.output).toBe(
      "Wrote src/probe.ts\n\nDiagnostics not shown for src/probe.ts (but for syntax errors): Read(secret/**) hides a file the typescript server reads for this project, and this workspace cannot keep that file from the server, so whether it reports a problem could reveal the file's content.",
    );
    // A clean write reads the same.
    const clean = await ask('write', { file_path: 'src/probe1.ts', content: 'export const q = 1;\n' });
    expect(clean.output.replaceAll('probe1', 'probe')).toBe(r.output);
    expect(JSON.stringify(r)).not.toMatch(new RegExp(`${TS_SECRET}|typescript2322`));
    const again = await control('write', { file_path: 'src/probe2.ts', content: text });
    expect(again.output).toContain(TS_SECRET);
    // A file the rules hide (and a write rule does not) gets no diagnostics at all.
    const hidden = await ask('write', { file_path: 'secret/w.ts', content: text.replace('../secret/k', './k') });
    expect(hidden.output).toBe('Wrote secret/w.ts');
    expect(JSON.stringify(hidden)).not.toContain(TS_SECRET);
  });

  it("the project checker's problems are not shown when it could not be kept from a denied file its program reads", async () => {
    // Two independent checker runs (each a whole tsc): side by side.
    const [open, r] = await Promise.all([
      lspCall(control, { operation: 'diagnostics', file: '*' }),
      lspCall(ask, { operation: 'diagnostics', file: '*' }),
    ]);
    expect(open.output).toContain(TS_SECRET);
    expect(r.output).toContain('== typescript (exit null) ==\n(problems not shown: Read(secret/**) hides a file');
    expect(r.output).not.toMatch(/TS2322|src\/bad\.ts/);
    expect(JSON.stringify(r)).not.toMatch(new RegExp(`${TS_SECRET}|API_KEY|secret/k`));
  }, 60_000);

  it('a project whose program reads no denied file keeps every answer whole', async () => {
    const h = await lspCall(ask, { operation: 'hover', file: 'other/a.ts', line: 1, symbol: 'LIT' });
    expect(h.output).toContain('plain-literal');
    const d = await lspCall(ask, { operation: 'diagnostics', file: 'other/a.ts' });
    expect(d.output).toContain(`Type '"plain-literal"' is not assignable to type '1'`);
  });
});

describe('lsp locations and edits in denied files (TypeScript)', () => {
  it('definition, type definition, references and workspace symbols leave denied files out', async () => {
    for (const [operation, line, symbol] of [
      ['definition', 2, 'API_KEY'],
      ['type_definition', 3, 'v'],
      ['references', 1, 'API_KEY'],
    ] as const) {
      const r = await lspCall(ask, { operation, file: 'src/use.ts', line, symbol });
      expect(r.output, operation).toContain('in files this session may not read left out');
      expect(r.output, operation).not.toMatch(/^(secret|vault)\/|sk-live|4321/m);
    }
    const s = await lspCall(ask, { operation: 'symbols', file: 'src/use.ts', query: 'API_KEY' });
    expect(s.output).toContain('left out');
    expect(s.output).not.toMatch(/^(secret|vault)\//m);
  });

  it('a denied file is refused by every operation, however its path is spelled', async () => {
    const spellings = ['secret/k.ts', './secret/k.ts', 'secret//k.ts', 'src/../secret/k.ts', 'vault/k.ts'];
    spellings.push(join(dir, 'secret/k.ts'));
    for (const file of spellings)
      for (const op of [
        { operation: 'hover', line: 3, symbol: 'API_KEY' },
        { operation: 'diagnostics' },
        { operation: 'symbols' },
        { operation: 'code_actions', line: 3, symbol: 'API_KEY' },
      ]) {
        const r = await lspCall(ask, { ...op, file });
        expect(r.ok, `${op.operation} ${file}`).toBe(false);
        expect(r.output, `${op.operation} ${file}`).toContain('Permission denied: Read(secret/**)');
      }
  });

  it('a rename whose edit would touch a denied file is refused whole and changes nothing', async () => {
    const before = readFileSync(join(dir, 'src/public.ts'), 'utf8');
    const r = await ask('lsp_rename', { file: 'src/public.ts', line: 1, symbol: 'PUBLIC_NAME', new_name: 'RENAMED' });
    expect(r.ok).toBe(false);
    expect(r.output).toContain('Permission denied: Read(secret/**)');
    expect(r.output).not.toContain('secret/k');
    expect(readFileSync(join(dir, 'src/public.ts'), 'utf8')).toBe(before);
    expect(readFileSync(join(dir, 'secret/k.ts'), 'utf8')).not.toContain('RENAMED');
    expect(existsSync(join(dir, 'secret/k.ts'))).toBe(true);
  });
});

describe('lsp answers that could quote a denied file (Python)', () => {
  it('hover and diagnostics of a visible module importing a denied one are withheld', async () => {
    const hover = { operation: 'hover', file: 'py/app.py', line: 3, symbol: 'alias' };
    expect((await lspCall(control, hover)).output).toContain(PY_SECRET);
    const h = await lspCall(ask, hover);
    expect(h.output).not.toContain(PY_SECRET);
    expect(h.output).toContain('Read(py/secret/**)');
    const d = await lspCall(ask, { operation: 'diagnostics', file: 'py/app.py' });
    expect(d.output).toMatch(
      /^Diagnostics not shown for py\/app\.py \(but for syntax errors\): Read\(py\/secret\/\*\*\)/,
    );
    expect(JSON.stringify(d)).not.toContain(PY_SECRET);
  }, 60_000);
});
