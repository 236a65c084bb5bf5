// A deliberate public API: every package entry names its exports, and a committed report per
// package (packages/<pkg>/api.md, generated from the built .d.ts) changes only on purpose.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publicEntries, staleReports, UPDATE_COMMAND } from '../scripts/api-report.mjs';

const root = resolve(import.meta.dirname, '..');

function indexFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : indexFiles(p);
    return e.name === 'index.ts' ? [p] : [];
  });
}

describe('public API', () => {
  it('no index.ts in any package uses `export *`: entries list their names', () => {
    const offenders = readdirSync(join(root, 'packages'))
      .flatMap((d) => indexFiles(join(root, 'packages', d, 'src')))
      .filter((f) => /^\s*export\s+(type\s+)?\*/m.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f));
    expect(offenders, 'list the exported names explicitly instead of `export *`').toEqual([]);
  });

  it('every package with a public entry has a committed API report', () => {
    for (const p of publicEntries(root))
      expect(
        existsSync(join(root, 'packages', p.folder, 'api.md')),
        `packages/${p.folder}/api.md (run: ${UPDATE_COMMAND})`,
      ).toBe(true);
  });

  it('the committed API reports match the built .d.ts files', () => {
    const stale = staleReports(root);
    const message = stale.map((s) => `${s.path} is stale:\n${s.diff.map((l) => `  ${l}`).join('\n')}`).join('\n\n');
    expect(
      stale.map((s) => s.path),
      `${message}\n\nThe public API changed. If that is deliberate, run: ${UPDATE_COMMAND}`,
    ).toEqual([]);
  });
});
