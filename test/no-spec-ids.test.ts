import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Requirement IDs (`PERM-07`, `GATE-01..08`) belong in test titles only: the spec is not shipped,
// so shipped sources, their JSDoc (the published typings) and the package READMEs do not cite it.
const root = resolve(import.meta.dirname, '..');
const PREFIXES = [
  'ADM',
  'ARCH',
  'ASK',
  'ASTE',
  'ASTG',
  'BATCH',
  'BND',
  'BUD',
  'BUILD',
  'CAP',
  'CTX',
  'DBG',
  'DIAG',
  'DWF',
  'EDIT',
  'EVAL',
  'EVT',
  'EXT',
  'FOLD',
  'GATE',
  'GENOBJ',
  'GLOB',
  'GREP',
  'INV',
  'KERN',
  'LLM',
  'LOG',
  'LSP',
  'MCP',
  'PARK',
  'PERM',
  'PERS',
  'PROG',
  'PROMPT',
  'PTASK',
  'PTC',
  'READ',
  'RENAME',
  'RES',
  'SDK',
  'STEER',
  'SURF',
  'TASK',
  'TIER',
  'TOOL',
  'VERIFY',
  'VIBE',
  'WFETCH',
  'WSRCH',
];
const ID = new RegExp(`\\b(?:${PREFIXES.join('|')})-\\d{2}\\b`);

function shipped(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory())
      return ['node_modules', 'dist', 'test-support', '__fixtures__'].includes(e.name) ? [] : shipped(p);
    return /\.(ts|mts|js|mjs)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

const packages = readdirSync(join(root, 'packages')).filter((d) =>
  existsSync(join(root, 'packages', d, 'package.json')),
);

describe('no requirement IDs in what is shipped', () => {
  it.each(packages)('packages/%s: sources and README cite no requirement ID', (pkg) => {
    const dir = join(root, 'packages', pkg);
    const files = [...shipped(join(dir, 'src')), join(dir, 'README.md')].filter((f) => existsSync(f));
    const hits = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (ID.test(line) ? [`${relative(root, f)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
