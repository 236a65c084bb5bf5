// The published shape, checked end to end: every publishable package (built) is packed with
// `pnpm pack`, the tarballs are installed together with npm into a scratch project outside the
// workspace (third-party dependencies from the registry or npm's cache), and that project runs the
// SDK with a scripted model (one `write` call under YOLO, then `verify`), type-checks a file
// against the installed declarations, and runs the installed `a3s --version`. The third-party part
// of the install is kept between runs (thirdPartyTree below) while no third-party range changes.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packsDir = join(root, 'packages');
const rootLicense = readFileSync(join(root, 'LICENSE'), 'utf8');

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  description?: string;
  license?: string;
  repository?: { type?: string; url?: string; directory?: string };
  engines?: Record<string, string>;
  files?: string[];
  sideEffects?: boolean | string[];
  exports?: Record<string, unknown>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const packages = readdirSync(packsDir)
  .filter((d) => existsSync(join(packsDir, d, 'package.json')))
  .map((d) => ({ dir: d, manifest: JSON.parse(readFileSync(join(packsDir, d, 'package.json'), 'utf8')) as Manifest }))
  .filter((p) => p.manifest.private !== true);

/** Packages that plug into core: core (and zod, whose types their declarations expose) are peers. */
const TOOL_PACKS = [
  '@a3s-code/tools-workspace',
  '@a3s-code/tools-web',
  '@a3s-code/tools-resource',
  '@a3s-code/providers',
  '@a3s-code/mcp',
];

// The child npm must not see the npm_* configuration pnpm exports to the scripts it runs.
const cleanEnv: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^npm_|^pnpm_/i.test(k)),
);

function run(cmd: string, args: string[], options: SpawnSyncOptions & { timeout: number }): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: cleanEnv, maxBuffer: 64 * 1024 * 1024, ...options });
  if (r.error) throw r.error;
  if (r.status !== 0)
    throw new Error(`'${cmd} ${args.join(' ')}' exited with ${r.status}\n${String(r.stdout)}\n${String(r.stderr)}`);
  return String(r.stdout);
}

/**
 * The third-party part of a finished scratch install (node_modules without any @a3s-code package,
 * their bin links or npm's hidden lockfile), kept in the temporary folder between runs: a run moves
 * it into its scratch project, npm installs every tarball into it (and checks the tree against every
 * range the packed manifests ask for), and the run moves it back, stripped again, when it ends. The
 * key is every third-party range of the packed manifests with node's and npm's versions: a change
 * to any of them is a fresh install. A run that finds no tree to take (none yet, another run holds
 * it, or `A3S_PACK_INSTALL_FRESH=1`) installs from scratch and keeps its own.
 */
const thirdPartyTree = {
  // scripts/run-tests.mjs gives each run a temporary folder of its own and removes it at the end:
  // it names a place beside that folder that outlives the run.
  root: process.env.A3S_PACK_INSTALL_CACHE || join(tmpdir(), 'a3s-pack-install-cache'),
  memo: undefined as string | undefined,
  key(): string {
    if (this.memo !== undefined) return this.memo;
    const ranges = [...packed.values()]
      .map((m) => {
        const own = (deps: Record<string, string> | undefined) =>
          Object.entries(deps ?? {})
            .filter(([name]) => !name.startsWith('@a3s-code/'))
            .sort(([a], [b]) => a.localeCompare(b));
        return [m.name, own(m.dependencies), own(m.peerDependencies), own(m.optionalDependencies)];
      })
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    const npm = run('npm', ['--version'], { timeout: 20_000 }).trim();
    this.memo = createHash('sha256')
      .update(JSON.stringify({ node: process.version, npm, ranges }))
      .digest('hex')
      .slice(0, 16);
    return this.memo;
  },
  /** Moves the kept tree to `project`/node_modules; false when there is none to take. */
  take(project: string): boolean {
    if (process.env.A3S_PACK_INSTALL_FRESH === '1') return false;
    try {
      renameSync(join(this.root, this.key(), 'node_modules'), join(project, 'node_modules'));
      return true;
    } catch {
      return false; // none kept yet, another run holds it, or another file system
    }
  },
  /** Strips `project`'s node_modules to its third-party part and keeps it; older trees but one go. */
  keep(project: string): void {
    const modules = join(project, 'node_modules');
    rmSync(join(modules, '@a3s-code'), { recursive: true, force: true });
    rmSync(join(modules, '.package-lock.json'), { force: true });
    const bin = join(modules, '.bin');
    for (const link of existsSync(bin) ? readdirSync(bin) : []) {
      if (readlinkSync(join(bin, link)).includes('@a3s-code/')) rmSync(join(bin, link));
    }
    const key = this.key();
    const dir = join(this.root, key);
    if (process.env.A3S_PACK_INSTALL_FRESH === '1') rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    try {
      renameSync(modules, join(dir, 'node_modules'));
    } catch {
      // Another run kept one first: this one goes with the scratch folder.
    }
    const others = readdirSync(this.root)
      .filter((d) => d !== key)
      .map((d) => ({ d, at: statSync(join(this.root, d)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const { d } of others.slice(1)) rmSync(join(this.root, d), { recursive: true, force: true });
  },
};

let work: string;
let tarballs: Map<string, string>; // package name -> tarball path
let packed: Map<string, Manifest>; // package name -> the package.json inside its tarball
let project: string;

beforeAll(() => {
  for (const p of packages) {
    if (!existsSync(join(packsDir, p.dir, 'dist')))
      throw new Error(`packages/${p.dir} is not built: run 'pnpm exec turbo run build' first`);
  }
  work = mkdtempSync(join(tmpdir(), 'a3s-pack-'));
  const out = join(work, 'tarballs');
  mkdirSync(out);
  run('pnpm', ['-r', '--filter', './packages/*', 'pack', '--pack-destination', out], {
    cwd: root,
    timeout: 60_000,
    env: process.env,
  });
  tarballs = new Map();
  packed = new Map();
  for (const file of readdirSync(out).filter((f) => f.endsWith('.tgz'))) {
    const manifest = JSON.parse(
      run('tar', ['-xzOf', join(out, file), 'package/package.json'], { timeout: 10_000 }),
    ) as Manifest;
    tarballs.set(manifest.name, join(out, file));
    packed.set(manifest.name, manifest);
  }
}, 90_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('packed tarballs', () => {
  it('every publishable package is packed', () => {
    expect([...tarballs.keys()].sort()).toEqual(packages.map((p) => p.manifest.name).sort());
  });

  it.each(packages.map((p) => [p.manifest.name, p.dir] as const))(
    '%s: publishable metadata, LICENSE and no workspace: specifiers',
    (name, dir) => {
      const m = packed.get(name)!;
      expect(m.description).toMatch(/\S/);
      expect(m.license).toBe('MIT');
      expect(m.repository).toEqual({ type: 'git', directory: `packages/${dir}` });
      expect(m.engines?.node).toBe('>=20');
      expect(m.files).toEqual(expect.arrayContaining(['dist', 'README.md', 'LICENSE']));
      expect(m.sideEffects).toBeDefined();
      const main = m.exports?.['.'] as { types?: string; import?: string } | undefined;
      expect(main?.types).toMatch(/\.d\.ts$/);
      expect(main?.import).toMatch(/\.js$/);
      for (const [sub, target] of Object.entries(m.exports ?? {})) {
        if (typeof target === 'object' && target !== null) expect(target, `exports['${sub}']`).toHaveProperty('types');
      }
      // pnpm pack rewrote every workspace: range to a real one.
      expect(JSON.stringify(m)).not.toMatch(/workspace:/);
      const listing = run('tar', ['-tzf', tarballs.get(name)!], { timeout: 10_000 }).split('\n');
      expect(listing).toEqual(
        expect.arrayContaining([
          'package/LICENSE',
          'package/README.md',
          'package/package.json',
          'package/dist/index.js',
          'package/dist/index.d.ts',
        ]),
      );
      expect(run('tar', ['-xzOf', tarballs.get(name)!, 'package/LICENSE'], { timeout: 10_000 })).toBe(rootLicense);
      expect(listing.filter((f) => /\/(src|test)\//.test(f))).toEqual([]);
    },
  );

  it('tool packs take core and zod as peers, never as dependencies; the core peer range spans the 0.x line', () => {
    const core = packed.get('@a3s-code/core')!;
    const version = (v: string) => v.split('.').map(Number) as [number, number, number];
    const notAfter = (a: string, b: string) => {
      const [x, y] = [version(a), version(b)];
      return x[0] < y[0] || (x[0] === y[0] && (x[1] < y[1] || (x[1] === y[1] && x[2] <= y[2])));
    };
    for (const name of TOOL_PACKS) {
      const m = packed.get(name)!;
      const range = m.peerDependencies?.['@a3s-code/core'] ?? '';
      const lower = /^>=(0\.\d+\.\d+) <1\.0\.0$/.exec(range)?.[1];
      expect(lower, `${name} peer range ${range}`).toBeDefined();
      expect(notAfter(lower!, core.version), `${name}: ${range} admits core ${core.version}`).toBe(true);
      expect(m.dependencies?.['@a3s-code/core'], name).toBeUndefined();
      expect(m.dependencies?.zod, name).toBeUndefined();
    }
    expect(core.peerDependencies?.zod).toMatch(/^\^4\./);
    const sdk = packed.get('@a3s-code/sdk')!;
    for (const name of ['@a3s-code/core', '@a3s-code/effect', ...TOOL_PACKS])
      expect(sdk.dependencies?.[name], name).toBe(`^${packed.get(name)!.version}`);
    expect(sdk.dependencies?.zod).toBeDefined();
  });
});

describe('installed from the tarballs in a scratch project', () => {
  let installed = false;
  beforeAll(() => {
    project = join(work, 'project');
    mkdirSync(project);
    const dependencies = Object.fromEntries([...tarballs].map(([name, file]) => [name, `file:${file}`]));
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'a3s-pack-scratch', private: true, type: 'module', dependencies }, null, 2),
    );
    // Third-party dependencies come from the registry, or npm's cache when it has them. Unpacking
    // them (pyright, typescript, ...) was most of this file's time, so the third-party part of an
    // install is kept between runs (see thirdPartyTree): npm then installs every tarball into it and
    // checks the tree against every range the packed manifests ask for.
    thirdPartyTree.take(project);
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: project,
      timeout: 150_000,
    });
    installed = true;
  }, 160_000);
  afterAll(() => {
    if (installed) thirdPartyTree.keep(project);
  });

  it('an ESM script runs the SDK with a scripted model: a write under YOLO lands in the workspace', () => {
    const ws = join(work, 'workspace');
    mkdirSync(ws);
    writeFileSync(
      join(project, 'smoke.mjs'),
      `import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from '@a3s-code/sdk';
import { ScriptedLlmClient } from '@a3s-code/core';

const dir = process.argv[2];
const model = new ScriptedLlmClient([
  { text: 'Writing.', tool_calls: [{ id: 'w1', name: 'write', args: { file_path: 'hello.txt', content: 'hello from the tarballs\\n' } }] },
  { text: 'Checking.', tool_calls: [{ id: 'v1', name: 'verify', args: { subject: 'hello.txt written', commands: [{ id: 'check', kind: 'test', command: 'test -s hello.txt', timeout_ms: 20000 }] } }] },
  { text: 'Done.' },
]);
const agent = await Agent.create({ model });
const session = await agent.session(dir, { governance: { yolo: true } });
const result = await session.send('Write hello.txt.');
await session.close();
console.log(JSON.stringify({ status: result.status, toolCalls: result.toolCalls, file: readFileSync(join(dir, 'hello.txt'), 'utf8') }));
`,
    );
    const out = run(process.execPath, ['smoke.mjs', ws], { cwd: project, timeout: 30_000 });
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({
      status: 'completed',
      toolCalls: 2,
      file: 'hello from the tarballs\n',
    });
  }, 40_000);

  it.skipIf((process.features as { require_module?: boolean }).require_module !== true)(
    'a CommonJS script requires the installed packages by name (Node 20.19+ loads ES modules with require)',
    () => {
      writeFileSync(
        join(project, 'smoke.cjs'),
        `const { Agent } = require('@a3s-code/sdk');
const { defineTool } = require('@a3s-code/core');
const { ScriptedConfirmationManager } = require('@a3s-code/core/testing');
const { LocalWorkspace } = require('@a3s-code/tools-workspace');
console.log([Agent, defineTool, ScriptedConfirmationManager, LocalWorkspace].map((f) => typeof f).join(' '));
`,
      );
      const out = run(process.execPath, ['smoke.cjs'], { cwd: project, timeout: 30_000 });
      expect(out.trim().split('\n').at(-1)).toBe('function function function function');
    },
    40_000,
  );

  it('one zod and one core are installed: the packs share the host’s copies', () => {
    // Resolved through each package's exported package.json (the packages are ESM-only).
    const where = (from: string, name: string) => createRequire(from).resolve(`${name}/package.json`);
    const host = join(project, 'package.json');
    for (const name of [...TOOL_PACKS, '@a3s-code/sdk', '@a3s-code/cli']) {
      expect(where(where(host, name), '@a3s-code/core'), name).toBe(where(host, '@a3s-code/core'));
    }
    for (const name of [
      '@a3s-code/core',
      '@a3s-code/tools-workspace',
      '@a3s-code/tools-web',
      '@a3s-code/mcp',
      '@a3s-code/sdk',
    ]) {
      expect(where(where(host, name), 'zod'), name).toBe(where(host, 'zod'));
    }
  });

  /** Type-checks `file` in the installed project, as a strict Node host would, with tsc. */
  const typeCheck = (file: string, config: string, skipLibCheck: boolean): void => {
    writeFileSync(
      join(project, config),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022',
          lib: ['es2022'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          strict: true,
          noEmit: true,
          skipLibCheck,
          types: ['node'],
          typeRoots: [join(root, 'node_modules', '@types')],
        },
        files: [file],
      }),
    );
    const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
    run(process.execPath, [tsc, '-p', config], { cwd: project, timeout: 60_000 });
  };

  it('the installed declarations type-check a host that defines a tool with its own zod', () => {
    writeFileSync(
      join(project, 'check.ts'),
      `import { Agent, type Session } from '@a3s-code/sdk';
import { ScriptedLlmClient, defineTool, defineToolPack, type Tool } from '@a3s-code/core';
import { ScriptedConfirmationManager } from '@a3s-code/core/testing';
import { z } from 'zod';

const echo: Tool<{ text: string }> = defineTool({
  name: 'echo',
  description: 'Echoes text.',
  input: z.object({ text: z.string() }),
  tier: 'read',
  execute: async (args) => ({ output: args.text, exitCode: 0 }),
});
export const pack = defineToolPack({ name: 'echo-pack', version: '1.0.0', tools: [echo] });
export const open = async (dir: string): Promise<Session> => (await Agent.create({ model: new ScriptedLlmClient([{ text: 'hi' }]), tools: [pack] })).session(dir);
export type Confirm = ScriptedConfirmationManager;
`,
    );
    typeCheck('check.ts', 'tsconfig.json', true);
  }, 70_000);

  it('the installed declarations type-check with skipLibCheck off and no DOM lib (MCP types included)', () => {
    writeFileSync(
      join(project, 'check-libs.ts'),
      `import { Agent } from '@a3s-code/sdk';
import { ProcessGroupStdioTransport, McpManager } from '@a3s-code/mcp';
export const parts: unknown = [Agent, ProcessGroupStdioTransport, McpManager];
`,
    );
    typeCheck('check-libs.ts', 'tsconfig.libs.json', false);
  }, 70_000);

  it('the installed a3s bin prints its version', () => {
    const version = packed.get('@a3s-code/cli')!.version;
    expect(
      run(join(project, 'node_modules', '.bin', 'a3s'), ['--version'], { cwd: project, timeout: 20_000 }).trim(),
    ).toBe(`a3s ${version}`);
  });
});
