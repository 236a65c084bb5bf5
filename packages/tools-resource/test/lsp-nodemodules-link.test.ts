// A package linked into node_modules from a folder outside the workspace (npm link, a `file:`
// dependency, a monorepo package whose node_modules links to a sibling) is outside the workspace:
// `read` refuses its files, so a write's diagnostics must not quote them either, whether
// TypeScript lists the file by its real path or, with `preserveSymlinks`, by the link's path in
// node_modules. A package installed in the workspace's node_modules answers in full.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LspResource, openLspResource } from '../src/lsp.js';
import { type Caller, governed, writeTree } from './lsp-deny-support.js';

const SECRET = 'OUTSIDE_SECRET_nm41';
const OWN = 'INSTALLED_VALUE_nm41';
/** A use of the package's constant; `tag` makes the message differ per project (the ledger reports a message once per run id). */
const use = (tag: string) => `import { S } from 'shared/s';\nexport const n: '${tag}' = S;\n`;
let top: string;
let lsp: LspResource;

/** A project under `top` named `name` whose tsconfig sets `preserveSymlinks`, with node_modules/shared linked out. */
function project(name: string, preserveSymlinks: boolean, linked: boolean): Caller {
  const dir = join(top, name);
  const compilerOptions = { strict: true, noEmit: true, preserveSymlinks, types: [] };
  writeTree(dir, {
    'package.json': '{"name":"p"}\n',
    'tsconfig.json': JSON.stringify({ compilerOptions }),
    'a.ts': 'export const a = 1;\n',
    ...(linked ? {} : { 'node_modules/shared/s.ts': `export const S = "${OWN}" as const;\n` }),
  });
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  if (linked) symlinkSync(join(top, 'outside'), join(dir, 'node_modules', 'shared'));
  return governed(dir, lsp, {});
}

beforeAll(() => {
  top = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-lsp-nm-link-')));
  writeTree(top, { 'outside/s.ts': `export const S = "${SECRET}" as const;\n` });
  lsp = openLspResource();
});

afterAll(async () => {
  await lsp.close();
  rmSync(top, { recursive: true, force: true });
});

describe('a node_modules package linked in from outside the workspace', () => {
  for (const preserve of [true, false]) {
    it(`preserveSymlinks ${preserve}: the write's diagnostics (and the project checker) do not quote it`, async () => {
      const call = project(`linked-${preserve}`, preserve, true);
      const w = await call('write', { file_path: 'a.ts', content: use(`p${preserve}`) });
      expect(w.output).toContain('Diagnostics not shown for a.ts (but for syntax errors)');
      expect(w.output).not.toContain(SECRET);
      expect(JSON.stringify(w.metadata)).not.toContain(SECRET);
      expect(w.output).toContain(`${join(top, 'outside', 's.ts')}, outside the workspace`);
      if (!preserve) return;
      const checker = await call('lsp', { operation: 'diagnostics', file: '*' });
      expect(checker.output).toContain('== typescript (exit null) ==');
      expect(checker.output).toContain(
        `(problems not shown: the typescript server's project reads ${join(top, 'outside', 's.ts')}`,
      );
      expect(checker.output).not.toContain(SECRET);
    }, 60_000);
  }

  it('a package installed in the workspace answers in full', async () => {
    const call = project('installed', true, false);
    const w = await call('write', { file_path: 'a.ts', content: use('own') });
    expect(w.output).toContain(OWN);
    expect(w.metadata?.diagnostics).not.toHaveProperty('withheld');
  }, 30_000);
});
