// A CommonJS program can `require()` every public entry of every published package by its name
// (Node 20.19+ loads an ES module with `require()`, given an exports condition it may take): a
// scratch project links the built packages into its node_modules, and one CommonJS script
// requires each entry and lists its named exports, which must be the ES module's.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

interface Manifest {
  name: string;
  private?: boolean;
  exports?: Record<string, string | Record<string, string>>;
}

const published = readdirSync(join(root, 'packages'))
  .filter((d) => existsSync(join(root, 'packages', d, 'package.json')))
  .map((d) => ({
    dir: join(root, 'packages', d),
    manifest: JSON.parse(readFileSync(join(root, 'packages', d, 'package.json'), 'utf8')) as Manifest,
  }))
  .filter((p) => p.manifest.private !== true);

/** Every public entry: its specifier and the built file an ES `import` of it loads. */
const entries = published.flatMap(({ dir, manifest }) =>
  Object.entries(manifest.exports ?? {}).flatMap(([sub, target]) => {
    if (sub === './package.json') return [];
    const file = typeof target === 'string' ? target : target.import;
    if (file === undefined) return [];
    return [{ spec: sub === '.' ? manifest.name : `${manifest.name}${sub.slice(1)}`, file: join(dir, file) }];
  }),
);

// Named exports a reader of the READMEs reaches for first.
const WELL_KNOWN: Record<string, string> = {
  '@a3s-code/sdk': 'Agent',
  '@a3s-code/core': 'defineTool',
  '@a3s-code/core/testing': 'ScriptedConfirmationManager',
  '@a3s-code/tools-workspace': 'LocalWorkspace',
  '@a3s-code/mcp': 'McpManager',
};

const scratch = mkdtempSync(join(tmpdir(), 'a3s-cjs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('CommonJS hosts', () => {
  it.skipIf((process.features as { require_module?: boolean }).require_module !== true)(
    'every public entry of every published package loads with require() by its name, with the ES module’s named exports',
    async () => {
      for (const { dir } of published)
        if (!existsSync(join(dir, 'dist')))
          throw new Error(`${dir} is not built: run 'pnpm exec turbo run build' first`);
      expect(published.length).toBeGreaterThanOrEqual(9);
      // The packages as an npm install lays them out: node_modules/@a3s-code/<name> (their own
      // dependencies resolve from where the links point).
      mkdirSync(join(scratch, 'node_modules', '@a3s-code'), { recursive: true });
      for (const { dir, manifest } of published) symlinkSync(dir, join(scratch, 'node_modules', manifest.name), 'dir');
      writeFileSync(
        join(scratch, 'package.json'),
        JSON.stringify({ name: 'cjs-host', private: true, type: 'commonjs' }),
      );
      writeFileSync(
        join(scratch, 'host.js'),
        `'use strict';
const out = {};
for (const spec of JSON.parse(process.argv[2])) {
  try {
    const mod = require(spec);
    out[spec] = { keys: Object.keys(mod).sort() };
  } catch (e) {
    out[spec] = { error: String(e.code ?? '') + ' ' + String(e.message).split('\\n')[0] };
  }
}
process.stdout.write(JSON.stringify(out));
`,
      );
      const r = spawnSync(process.execPath, ['host.js', JSON.stringify(entries.map((e) => e.spec))], {
        cwd: scratch,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, HOME: scratch },
      });
      expect(r.status, r.stderr).toBe(0);
      const got = JSON.parse(r.stdout) as Record<string, { keys?: string[]; error?: string }>;
      for (const { spec, file } of entries) {
        const esm = spec.endsWith('.json')
          ? undefined
          : Object.keys((await import(pathToFileURL(file).href)) as object).sort();
        expect(got[spec]?.error, spec).toBeUndefined();
        if (esm !== undefined) expect(got[spec]?.keys, spec).toEqual(esm);
      }
      for (const [spec, name] of Object.entries(WELL_KNOWN)) expect(got[spec]?.keys, spec).toContain(name);
    },
    60_000,
  );
});
