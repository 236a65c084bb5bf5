import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Fast start: the heavy optional dependencies load on first use, never when a package is
// imported or a one-turn offline run starts. Runs the built entries (the suite builds first).
const root = resolve(import.meta.dirname, '..');
const dist = (pkg: string, file = 'index.js'): string => join(root, 'packages', pkg, 'dist', file);

/** Heavy packages and the package entry that would pull each in. */
const HEAVY = [
  'ajv',
  'ajv-formats',
  'quickjs-emscripten-core',
  '@jitl/quickjs-wasmfile-release-sync',
  'execa',
  'simple-git',
  'linkedom',
  '@mozilla/readability',
  'node-html-markdown',
  'playwright-core',
  '@modelcontextprotocol/sdk',
  'web-tree-sitter',
];

// Records every module a process loads: ESM through a resolve hook (it runs on the hooks thread,
// so it reports on stderr), CommonJS from the shared require cache at exit.
const HOOK = `export async function resolve(s, c, n) { const r = await n(s, c); process.stderr.write('LOADED ' + r.url + '\\n'); return r; }`;
const RECORDER = [
  "import { register, createRequire } from 'node:module';",
  `register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOK)}));`,
  "const req = createRequire(process.cwd() + '/recorder.js');",
  "process.on('exit', () => { for (const f of Object.keys(req.cache)) process.stderr.write('LOADED ' + f + '\\n'); });",
].join('\n');
const recorder = `data:text/javascript,${encodeURIComponent(RECORDER)}`;

/** The heavy packages among the modules a `node` run with `args` loaded. */
function heavyLoaded(args: readonly string[], cwd = root): string[] {
  const r = spawnSync(process.execPath, ['--import', recorder, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  expect(r.status, r.stderr).toBe(0);
  const loaded = r.stderr
    .split('\n')
    .filter((l) => l.startsWith('LOADED '))
    .map((l) => decodeURIComponent(l.slice(7)).replace(/\\/g, '/'));
  return HEAVY.filter((name) => loaded.some((url) => url.includes(`/node_modules/${name}/`)));
}

const scratch = mkdtempSync(join(tmpdir(), 'a3s-lazy-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('fast start: heavy dependencies load on first use', () => {
  it('the recorder sees heavy packages, CommonJS (ajv) and ESM (execa), when they are loaded', () => {
    const core = dist('core');
    const workspace = dist('tools-workspace');
    const code = `import { createRequire } from 'node:module'; createRequire(${JSON.stringify(core)})('ajv'); await import(createRequire(${JSON.stringify(workspace)}).resolve('execa'));`;
    expect(heavyLoaded(['--input-type=module', '-e', code])).toEqual(['ajv', 'execa']);
  });

  it('importing @a3s-code/core loads none of them', () => {
    expect(heavyLoaded(['--input-type=module', '-e', `await import(${JSON.stringify(dist('core'))})`])).toEqual([]);
  });

  it('importing @a3s-code/sdk-node (every tool pack, MCP and the providers) loads none of them', () => {
    expect(heavyLoaded(['--input-type=module', '-e', `await import(${JSON.stringify(dist('sdk-node'))})`])).toEqual([]);
  });

  it('the ast pack loads web-tree-sitter only when its parser is first used', () => {
    const ast = JSON.stringify(dist('tools-resource', 'ast.js'));
    expect(heavyLoaded(['--input-type=module', '-e', `await import(${ast})`])).toEqual([]);
    const use = `const m = await import(${ast}); const r = await m.openAstResource(); await r.compile(m.languageById('typescript'), 'f($X)'); await r.close();`;
    expect(heavyLoaded(['--input-type=module', '-e', use])).toEqual(['web-tree-sitter']);
  });

  it('`a3s run` with a one-turn scripted model loads none of them', () => {
    const model = join(scratch, 'model.json');
    writeFileSync(model, JSON.stringify({ turns: [{ text: 'Nothing to change.' }] }));
    expect(
      heavyLoaded([dist('cli', 'bin.js'), 'run', '--model', `scripted:${model}`, '--cwd', scratch, 'say hi']),
    ).toEqual([]);
  });
});
