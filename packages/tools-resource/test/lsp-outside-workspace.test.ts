// The lsp tools and files outside the workspace, attacked from a hostile repository: its
// tsconfig.json lists a file elsewhere on the machine, and its code imports one by an absolute
// path, by `../` and through a symbolic link checked in beside it. `read` refuses such a file; the
// lsp tools run unasked (read tier) and must not show its text either: a location there shows its
// path and line only, and a hover, a diagnostic message or the project checker's output (which can
// quote a declaration's literal type) is withheld while the server's project reads such a file.
// A project that reads only its own files and installed packages (TypeScript's own library sits
// in a node_modules folder outside the workspace) answers in full.
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LspResource, openLspResource } from '../src/lsp.js';
import { type Caller, governed, writeTree } from './lsp-deny-support.js';

const SECRET = 'ghp_outside_token_7731';
/** A name only a configuration outside the workspace holds. */
const TYPE_NAME = 'SECRETTYPE_zz93';
/** From the repository's src folder up and out to the file beside it. */
const CLIMB = ['..', '..', 'home', 'config.json'].join('/');
let top: string;
const APP = 'from creds import API\n\ncopy = API\nn: int = API\n';
let lsp: LspResource;
let hostile: Caller;
let plain: Caller;
const py: Record<string, Caller> = {};

beforeAll(() => {
  top = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-lsp-outside-')));
  const home = join(top, 'home');
  writeTree(home, {
    'token.ts': `export const TOKEN = '${SECRET}';\n`,
    'config.json': `{\n  "auth": "${SECRET}"\n}\n`,
  });
  const repo = join(top, 'repo');
  writeTree(repo, {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, resolveJsonModule: true, esModuleInterop: true, types: [] },
      files: ['src/a.ts', 'src/b.ts', 'src/c.ts', join(home, 'token.ts')],
    }),
    'src/a.ts': `import { TOKEN } from '${join(home, 'token')}';\nexport const copy = TOKEN;\nexport const n: 1 = TOKEN;\n`,
    'src/b.ts': `import cfg from '${CLIMB}';\nexport const auth = cfg.auth;\n`,
    'src/c.ts': "import { TOKEN } from './linked';\nexport const again = TOKEN;\n",
  });
  symlinkSync(join(home, 'token.ts'), join(repo, 'src', 'linked.ts'));
  const clean = join(top, 'clean');
  writeTree(clean, {
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ['src'] }),
    'src/lib.ts': `export const LOCAL = '${SECRET}';\n`,
    'src/use.ts':
      "import { LOCAL } from './lib';\nexport const mine = LOCAL;\nexport const m: 1 = LOCAL;\nexport const list = [1].map((x) => x);\n",
  });
  writeTree(join(top, 'pyhome'), { 'creds.py': `API = '${SECRET}'\n` });
  const app = APP;
  const projects: Record<string, Record<string, string>> = {
    absolute: { 'pyrightconfig.json': JSON.stringify({ extraPaths: [join(top, 'pyhome')] }), 'app.py': app },
    climbing: {
      'pyproject.toml': `[project]\nname = "x"\nversion = "0"\n\n[tool.pyright]\ninclude = ["."]\nextraPaths = ['../pyhome']\n`,
      'app.py': app,
    },
    linked: { 'pyrightconfig.json': JSON.stringify({ extraPaths: ['vendor'] }), 'app.py': app },
    // The checker reads the folder outside too, and reports its problems by path.
    checked: {
      'pyrightconfig.json': JSON.stringify({ include: ['.', '../pyhome'] }),
      'app.py': 'x: int = 1\n',
    },
    own: {
      'pyproject.toml': '[project]\nname = "x"\nversion = "0"\n\n[tool.black]\nline-length = 100\n',
      'creds.py': `API = '${SECRET}'\n`,
      'app.py': app,
    },
  };
  // Reaching out past the root configuration: through a file it extends, a .pth file of the
  // virtual environment it names, a module linked in beside the code.
  Object.assign(projects, {
    extended: {
      'pyrightconfig.json': JSON.stringify({ extends: './cfg/base.json' }),
      'cfg/base.json': JSON.stringify({ extraPaths: [join(top, 'pyhome')] }),
      'app.py': 'import os\n',
    },
    pth: {
      'pyrightconfig.json': JSON.stringify({ venvPath: '.', venv: '.venv' }),
      '.venv/pyvenv.cfg': 'home = /usr/bin\nversion = 3.11.2\n',
      '.venv/lib/python3.11/site-packages/x.pth': `# paths\nimport os\n${join(top, 'pyhome')}\n`,
      'app.py': 'import os\n',
    },
    symlinked: { 'pyproject.toml': '[project]\nname = "x"\nversion = "0"\n', 'app.py': 'import os\n' },
    tsext: {
      'tsconfig.json': JSON.stringify({ extends: './cfg/base', include: ['src'] }),
      'cfg/base.json': JSON.stringify({ extends: join(top, 'tsbase.json') }),
      'src/a.ts': 'export const a = 1;\n',
    },
    tsown: {
      'tsconfig.json': JSON.stringify({ extends: './cfg/base', include: ['src'] }),
      'cfg/base.json': JSON.stringify({ compilerOptions: { types: ['OWN_TYPE_q7'] } }),
      'src/a.ts': 'export const a = 1;\n',
    },
  });
  writeTree(top, {
    'tsbase.json': JSON.stringify({ compilerOptions: { types: [TYPE_NAME] }, files: [`${TYPE_NAME}.ts`] }),
  });
  for (const [name, files] of Object.entries(projects)) writeTree(join(top, name), files);
  symlinkSync(join(top, 'pyhome', 'creds.py'), join(top, 'symlinked', 'creds.py'));
  writeTree(join(top, 'pyhome'), { 'bad.py': `n: int = '${SECRET}'\n` });
  symlinkSync(join(top, 'pyhome'), join(top, 'linked', 'vendor'));
  lsp = openLspResource();
  hostile = governed(repo, lsp, {});
  plain = governed(clean, lsp, {});
  for (const name of Object.keys(projects)) py[name] = governed(join(top, name), lsp, {});
});
afterAll(async () => {
  await lsp.close();
  rmSync(top, { recursive: true, force: true });
});

describe('lsp and files outside the workspace', () => {
  it('a definition in such a file shows its path and line, not its text', async () => {
    for (const [file, at] of [
      ['src/a.ts', join(top, 'home', 'token.ts')],
      // The server names the link, inside the workspace; its text is still not read.
      ['src/c.ts', 'src/linked.ts'],
    ] as const) {
      const r = await hostile('lsp', { operation: 'definition', file, line: 1, symbol: 'TOKEN' });
      expect(r.exitCode, r.output).toBe(0);
      expect(r.output).toContain(`${at}:1: (outside the workspace: not shown)`);
      expect(r.output).not.toContain(SECRET);
      expect(JSON.stringify(r.metadata)).not.toContain(SECRET);
    }
    // A JSON file's line holds the value itself.
    const json = await hostile('lsp', { operation: 'definition', file: 'src/b.ts', line: 2, symbol: 'auth' });
    expect(json.output).not.toContain(SECRET);
  });

  it('a hover, the diagnostics and the project checker withhold text while the project reads such a file', async () => {
    const hover = await hostile('lsp', { operation: 'hover', file: 'src/a.ts', line: 2, symbol: 'copy' });
    expect(hover.output).not.toContain(SECRET);
    expect(hover.output).toContain(`reads ${join(top, 'home', 'token.ts')}, outside the workspace`);
    // Which lines carry an error could spell the file out: none but syntax errors is shown.
    const diagnostics = await hostile('lsp', { operation: 'diagnostics', file: 'src/a.ts' });
    expect(diagnostics.output).not.toMatch(/src\/a\.ts:3: error/);
    expect(diagnostics.output).toContain(
      `Diagnostics not shown for src/a.ts (but for syntax errors): the typescript server's project reads ${join(top, 'home', 'token.ts')}, outside the workspace`,
    );
    expect(diagnostics.output).not.toContain(SECRET);
    const checker = await hostile('lsp', { operation: 'diagnostics', file: '*' });
    expect(checker.output).toContain('== typescript (exit null) ==');
    expect(checker.output).toContain('(problems not shown: ');
    expect(checker.output).not.toContain('TS2322');
    expect(checker.output).not.toContain(SECRET);
  });

  it('a project reading only its own files and TypeScript’s library answers in full', async () => {
    const hover = await plain('lsp', { operation: 'hover', file: 'src/use.ts', line: 2, symbol: 'mine' });
    expect(hover.output).toContain(SECRET);
    const diagnostics = await plain('lsp', { operation: 'diagnostics', file: 'src/use.ts' });
    expect(diagnostics.output).toContain(`Type '"${SECRET}"' is not assignable to type '1'`);
    const def = await plain('lsp', { operation: 'definition', file: 'src/use.ts', line: 2, symbol: 'LOCAL' });
    expect(def.output).toContain(`src/lib.ts:1: export const LOCAL = '${SECRET}';`);
    // `map` is declared in TypeScript's own library, outside the workspace in a node_modules folder.
    const map = await plain('lsp', { operation: 'definition', file: 'src/use.ts', line: 4, symbol: 'map' });
    expect(map.output).toMatch(/node_modules\/.*lib\.es5\.d\.ts:\d+: \(outside the workspace: not shown\)/);
    const mapHover = await plain('lsp', { operation: 'hover', file: 'src/use.ts', line: 4, symbol: 'map' });
    expect(mapHover.output).toContain('Array<number>.map');
  });
});

describe('pyright pointed outside the workspace by its configuration', () => {
  it('extraPaths absolute, climbing out with .. (pyproject.toml) or through a link: no hover or message quotes the file', async () => {
    for (const [name, config, named] of [
      ['absolute', 'pyrightconfig.json', join(top, 'pyhome')],
      ['climbing', 'pyproject.toml', '../pyhome'],
      ['linked', 'pyrightconfig.json', 'vendor'],
    ] as const) {
      const call = py[name]!;
      const hover = await call('lsp', { operation: 'hover', file: 'app.py', line: 3, symbol: 'copy' });
      expect(hover.output, name).not.toContain(SECRET);
      expect(hover.output, name).toContain(`${config} points pyright at '${named}', outside the workspace`);
      const diagnostics = await call('lsp', { operation: 'diagnostics', file: 'app.py' });
      expect(diagnostics.output, name).not.toContain('app.py:4: error');
      expect(diagnostics.output, name).toContain('Diagnostics not shown for app.py (but for syntax errors)');
      expect(diagnostics.output, name).not.toContain(SECRET);
      const def = await call('lsp', { operation: 'definition', file: 'app.py', line: 1, symbol: 'API' });
      expect(def.output, name).toMatch(/creds\.py:1: \(outside the workspace: not shown\)/);
      expect(def.output, name).not.toContain(SECRET);
    }
  });

  it('the project checker shows none of its problems, nor whether it found any', async () => {
    const r = await py.checked!('lsp', { operation: 'diagnostics', file: '*' });
    expect(r.output).toContain('== python (exit null) ==');
    expect(r.output).not.toContain(SECRET);
    expect(r.output).not.toContain('bad.py');
    expect(r.output).toContain(
      "(problems not shown: pyrightconfig.json points pyright at '../pyhome', outside the workspace, which this session may not read",
    );
  });

  it('a Python project keeping to its own files answers in full', async () => {
    const hover = await py.own!('lsp', { operation: 'hover', file: 'app.py', line: 3, symbol: 'copy' });
    expect(hover.output).toContain(SECRET);
    const diagnostics = await py.own!('lsp', { operation: 'diagnostics', file: 'app.py' });
    expect(diagnostics.output).toContain(SECRET);
  });
});

describe('a project reaching outside past its root configuration', () => {
  it('pyright through an extended configuration, a .pth file of its virtual environment or a linked module: write, diagnostics and the checker show no problem', async () => {
    for (const [name, why] of [
      ['extended', `cfg/base.json points pyright at '${join(top, 'pyhome')}', outside the workspace`],
      ['pth', `.venv/lib/python3.11/site-packages/x.pth adds '${join(top, 'pyhome')}' to pyright's search paths`],
      ['symlinked', `reads ${join(top, 'pyhome', 'creds.py')} (creds.py links to it), outside the workspace`],
    ] as const) {
      const call = py[name]!;
      // A declared type of its own per project: the diagnostics ledger reports a message once per run id.
      const type = { extended: 'int', pth: 'bytes', symlinked: 'float' }[name];
      const w = await call('write', { file_path: 'app.py', content: APP.replace('int', type) });
      expect(w.output, name).toContain('Diagnostics not shown for app.py (but for syntax errors)');
      expect(w.output, name).not.toContain('app.py:4: error');
      expect(w.output, name).not.toContain(SECRET);
      expect(w.output, name).toContain(why);
      const d = await call('lsp', { operation: 'diagnostics', file: 'app.py' });
      expect(d.output, name).not.toContain('app.py:4: error');
      expect(d.output, name).not.toContain(SECRET);
      expect(d.metadata?.not_shown, name).toContain(why);
      const all = await call('lsp', { operation: 'diagnostics', file: '*' });
      expect(all.output, name).toContain('== python (exit null) ==');
      expect(all.output, name).not.toContain(SECRET);
      expect(all.output, name).toContain(why);
    }
  }, 120_000);

  it('the TypeScript checker with a tsconfig.json extending a file outside (here through one inside) shows none of its problems', async () => {
    const r = await py.tsext!('lsp', { operation: 'diagnostics', file: '*' });
    expect(r.output).toContain('== typescript (exit null) ==');
    expect(r.output).not.toContain('TS2688');
    expect(r.output).not.toContain(TYPE_NAME);
    expect(r.output).toContain(`cfg/base.json points the TypeScript compiler at '${join(top, 'tsbase.json')}'`);
    // The same chain kept inside the workspace answers in full.
    const own = await py.tsown!('lsp', { operation: 'diagnostics', file: '*' });
    expect(own.output).toContain("Cannot find type definition file for 'OWN_TYPE_q7'");
    expect(own.output).not.toContain('withheld');
  }, 60_000);
});
