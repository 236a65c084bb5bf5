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
  'simple-git',
  'linkedom',
  '@mozilla/readability',
  'node-html-markdown',
  'playwright-core',
  '@modelcontextprotocol/sdk',
  'web-tree-sitter',
  'vscode-jsonrpc',
];

// Records every module a process loads: ESM through a resolve hook (it runs on the hooks thread,
// so it reports on stderr), CommonJS from the shared require cache at exit. zod, which core loads
// with `require` of its ES module (seen by neither), is recognised by the registry it puts on
// `globalThis` when it loads.
const HOOK = `export async function resolve(s, c, n) { const r = await n(s, c); process.stderr.write('LOADED ' + r.url + '\\n'); return r; }`;
const RECORDER = [
  "import { register, createRequire } from 'node:module';",
  `register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOK)}));`,
  "const req = createRequire(process.cwd() + '/recorder.js');",
  "process.on('exit', () => { for (const f of Object.keys(req.cache)) process.stderr.write('LOADED ' + f + '\\n'); });",
  "process.on('exit', () => { if (globalThis.__zod_globalRegistry !== undefined) process.stderr.write('LOADED /node_modules/zod/ (its registry)\\n'); });",
].join('\n');
const recorder = `data:text/javascript,${encodeURIComponent(RECORDER)}`;

/**
 * The modules a `node` run with `args` loaded. A run asked for again (the same arguments in the same
 * folder, its files unchanged) is answered from the first: one process serves the heavy-package
 * check and the zod check of the same entry.
 */
const runs = new Map<string, string[]>();
function loadedBy(args: readonly string[], cwd: string): string[] {
  const key = JSON.stringify([cwd, args]);
  const known = runs.get(key);
  if (known !== undefined) return known;
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
  runs.set(key, loaded);
  return loaded;
}

/** The heavy packages (or, with `names`, those packages) among the modules a `node` run with `args` loaded. */
function heavyLoaded(
  args: readonly string[],
  cwd = root,
  names: readonly string[] = HEAVY,
  once: 'fresh' | 'shared' = 'fresh',
): string[] {
  if (once === 'fresh') runs.delete(JSON.stringify([cwd, args]));
  const loaded = loadedBy(args, cwd);
  return names.filter((name) => loaded.some((url) => url.includes(`/node_modules/${name}/`)));
}

const scratch = mkdtempSync(join(tmpdir(), 'a3s-lazy-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('fast start: heavy dependencies load on first use', () => {
  it('the recorder sees heavy packages, CommonJS (ajv) and ESM (linkedom), when they are loaded', () => {
    const core = dist('core');
    const web = dist('tools-web');
    const code = `import { createRequire } from 'node:module'; createRequire(${JSON.stringify(core)})('ajv'); await import(createRequire(${JSON.stringify(web)}).resolve('linkedom'));`;
    expect(heavyLoaded(['--input-type=module', '-e', code])).toEqual(['ajv', 'linkedom']);
  });

  it('importing @a3s-code/core loads none of them', () => {
    expect(
      heavyLoaded(
        ['--input-type=module', '-e', `await import(${JSON.stringify(dist('core'))})`],
        root,
        HEAVY,
        'shared',
      ),
    ).toEqual([]);
  });

  it('importing @a3s-code/sdk-node (every tool pack, MCP and the providers) loads none of them', () => {
    expect(
      heavyLoaded(
        ['--input-type=module', '-e', `await import(${JSON.stringify(dist('sdk-node'))})`],
        root,
        HEAVY,
        'shared',
      ),
    ).toEqual([]);
  });

  it('the ast pack loads web-tree-sitter only when its parser is first used', () => {
    const ast = JSON.stringify(dist('tools-resource', 'ast.js'));
    expect(heavyLoaded(['--input-type=module', '-e', `await import(${ast})`])).toEqual([]);
    const use = `const m = await import(${ast}); const r = await m.openAstResource(); await r.compile(m.languageById('typescript'), 'f($X)'); await r.close();`;
    expect(heavyLoaded(['--input-type=module', '-e', use])).toEqual(['web-tree-sitter']);
  });

  it('the lsp pack loads vscode-jsonrpc only when a server starts, never for a file no server can serve', () => {
    const lsp = JSON.stringify(dist('tools-resource', 'lsp.js'));
    writeFileSync(join(scratch, 'notes.md'), '# notes\n');
    const probe = `const m = await import(${lsp}); const r = m.openLspResource(); const s = r.supervisor(${JSON.stringify(scratch)}); const a = s.availability(${JSON.stringify(join(scratch, 'notes.md'))}); if (a.ok) throw new Error('served'); await r.close();`;
    expect(heavyLoaded(['--input-type=module', '-e', probe])).toEqual([]);
  });

  it('`a3s run` with a one-turn scripted model loads none of them', () => {
    const model = join(scratch, 'model.json');
    writeFileSync(model, JSON.stringify({ turns: [{ text: 'Nothing to change.' }] }));
    const run = [dist('cli', 'bin.js'), 'run', '--model', `scripted:${model}`, '--cwd', scratch, 'say hi'];
    expect(heavyLoaded(run, root, HEAVY, 'shared')).toEqual([]);
  });

  it('`a3s --version` and `a3s --help` load neither the runtime nor the SDK', () => {
    const runtime = (loaded: readonly string[]) =>
      loaded.filter((url) => /\/packages\/(?:core|sdk-node|tools-[a-z]+|mcp|providers)\/dist\//.test(url));
    for (const args of [['--version'], ['version'], ['--help']]) {
      const loaded = loadedBy([dist('cli', 'bin.js'), ...args], scratch);
      expect(
        loaded.some((url) => url.includes('/packages/cli/dist/')),
        args.join(' '),
      ).toBe(true);
      expect(runtime(loaded), args.join(' ')).toEqual([]);
    }
  });
});

describe('fast start: zod loads on first validation', () => {
  const imported = (pkg: string): string[] =>
    heavyLoaded(['--input-type=module', '-e', `await import(${JSON.stringify(dist(pkg))})`], root, ['zod'], 'shared');

  it('the recorder sees zod when core builds a schema (zod loaded with require, not import)', () => {
    const code = `const { lazyZod } = await import(${JSON.stringify(dist('core'))}); lazyZod((z) => z.string())().parse('x');`;
    expect(heavyLoaded(['--input-type=module', '-e', code], root, ['zod'])).toEqual(['zod']);
  });

  it.each(['core', 'sdk-node', 'tools-workspace', 'tools-web', 'mcp', 'providers'])(
    'importing @a3s-code/%s does not load zod',
    (pkg) => {
      expect(imported(pkg)).toEqual([]);
    },
  );

  it('a one-turn scripted `a3s run` loads no zod (precomputed tool schemas, zod-free config and script checks)', () => {
    // The run the heavy-package check above recorded (the same script), when it ran.
    const model = join(scratch, 'model.json');
    writeFileSync(model, JSON.stringify({ turns: [{ text: 'Nothing to change.' }] }));
    const run = [dist('cli', 'bin.js'), 'run', '--model', `scripted:${model}`, '--cwd', scratch, 'say hi'];
    expect(heavyLoaded(run, root, ['zod'], 'shared')).toEqual([]);
    // The recorder would see it: a script zod must judge (a bad turn) loads zod, and fails.
    writeFileSync(model, JSON.stringify({ turns: [{ text: 1 }] }));
    const r = spawnSync(process.execPath, ['--import', recorder, ...run], { cwd: root, encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('/node_modules/zod/');
  });

  it('a scripted `a3s run` whose calls of read, grep, glob, ls and a dry-run edit are well formed loads neither zod nor ajv', () => {
    const ws = mkdtempSync(join(scratch, 'calls-'));
    writeFileSync(join(ws, 'a.txt'), 'hello\n');
    const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, args });
    const model = join(scratch, 'calls-model.json');
    const turn = (c: ReturnType<typeof call>) => ({ text: c.name, tool_calls: [c] });
    writeFileSync(
      model,
      JSON.stringify({
        turns: [
          turn(call('c1', 'read', { file_path: 'a.txt' })),
          turn(call('c2', 'grep', { pattern: 'hello' })),
          turn(call('c3', 'ls', {})),
          turn(call('c4', 'glob', { pattern: '*.txt' })),
          turn(call('c5', 'edit', { file_path: 'a.txt', old_string: 'hello', new_string: 'hi', dry_run: true })),
          { text: 'done' },
        ],
      }),
    );
    const run = [dist('cli', 'bin.js'), 'run', '--yolo', '--model', `scripted:${model}`, '--cwd', ws, 'go'];
    expect(heavyLoaded(run, root, ['zod', 'ajv'])).toEqual([]);
    // A malformed call is judged (and explained) by ajv, then by zod for a rule across fields.
    writeFileSync(
      model,
      JSON.stringify({ turns: [turn(call('c1', 'read', { file_path: 'a.txt', limit: 0 })), { text: 'done' }] }),
    );
    expect(heavyLoaded(run, root, ['zod', 'ajv'])).toEqual(['ajv']);
  });

  it('a tool and a pack with a schema builder load zod only when the schema is first read', () => {
    const core = JSON.stringify(dist('core'));
    const define = `const { defineTool, defineToolPack } = await import(${core});
      const tool = defineTool({ name: 'echo', description: 'echo', tier: 'read', input: (z) => z.object({ text: z.string() }),
        execute: async (a) => ({ output: a.text, exitCode: 0 }) });
      defineToolPack({ name: 'p', version: '1.0.0', tools: [tool] });`;
    expect(heavyLoaded(['--input-type=module', '-e', define], root, ['zod'])).toEqual([]);
    const read = `${define} if (tool.inputSchema.properties.text.type !== 'string') process.exit(3);`;
    expect(heavyLoaded(['--input-type=module', '-e', read], root, ['zod'])).toEqual(['zod']);
  });
});
