/**
 * Patterns that backtrack without bound: back-references and look-arounds are refused by both
 * engines alike (ripgrep's default engine has neither), a case-insensitive pattern runs on V8's
 * linear-time engine (its case variants spelled out, with the `i` flag's exact matches), and a
 * pattern that engine cannot take runs under a time budget. Real files, real `rg`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceGrepMatch } from '@a3s-code/core';
import { LocalWorkspace } from '../local/local-workspace.js';
import { MemoryWorkspace } from '../memory/memory-workspace.js';
import { tempDir, writeTree } from '../test-support/harness.js';
import { compileMatcher } from './js-regex.js';
import { prepareSource } from './regex-syntax.js';
import type { FastWorkspaceSearch } from './search-types.js';

// 40 `a`s then a `!`: `(a+)+$` needs 2^40 steps to fail on V8's backtracking engine.
const EVIL = `${'a'.repeat(40)}!`;
const files = {
  'evil.txt': `${EVIL}\nAAAA\n`,
  'code.ts': 'const id = "0123456789abcdef0123456789abcdef01234567";\nfoo(bar)\n(?=x\n\\1 a\nab\n',
};

const tmp = tempDir('a3s-regex-');
const engines: Record<string, FastWorkspaceSearch> = {};

beforeAll(async () => {
  writeTree(tmp.dir, files);
  const rg = new LocalWorkspace({ root: tmp.dir, searchEngine: 'ripgrep' });
  expect(await rg.search!.backend()).toHaveProperty('engine', 'ripgrep');
  engines.rg = rg.search!;
  engines.js = new LocalWorkspace({ root: tmp.dir, searchEngine: 'js' }).search!;
  engines.memory = (await MemoryWorkspace.create({ files })).search;
});
afterAll(() => tmp.cleanup());

async function all(it: AsyncIterable<WorkspaceGrepMatch>): Promise<WorkspaceGrepMatch[]> {
  const out: WorkspaceGrepMatch[] = [];
  for await (const m of it) out.push(m);
  return out;
}

describe('GREP: back-references and look-arounds are refused alike by both engines', () => {
  const refused = ['(a)\\1', 'a\\2', '(?=a)', '(?!a)b', '(?<=a)b', '(?<!a)b', 'x(?=a+)+', '[\\1]'];
  it.each(refused)('%s is a typed refusal naming pattern, with what is allowed', async (pattern) => {
    for (const [name, search] of Object.entries(engines)) {
      const error = await search.grepFiles({ pattern }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, name).toMatchObject({ code: 'WORKSPACE_SEARCH', field: 'pattern' });
      const message = (error as Error).message;
      expect(message, name).toMatch(/not supported/);
      expect(message, name).toContain('allowed: ripgrep regex syntax without back-references');
      expect(message, name).not.toMatch(/pcre2/i);
      await expect(all(search.grep({ pattern })), name).rejects.toMatchObject({ code: 'WORKSPACE_SEARCH' });
    }
  });

  it('a named back-reference is a typed refusal naming pattern in both engines', async () => {
    for (const [name, search] of Object.entries(engines))
      await expect(search.grepFiles({ pattern: '(?<n>a)\\k<n>' }), name).rejects.toMatchObject({
        code: 'WORKSPACE_SEARCH',
        field: 'pattern',
      });
  });

  it.each(['[(?=]', '\\\\1', '(?<name>a)b', 'foo\\(bar\\)', '\\(\\?=x'])(
    '%s only looks like one, and both engines find the same lines',
    async (pattern) => {
      const fromRg = await all(engines.rg!.grep({ pattern }));
      expect(fromRg.length).toBeGreaterThan(0);
      expect(await all(engines.js!.grep({ pattern }))).toEqual(fromRg);
      expect(await all(engines.memory!.grep({ pattern }))).toEqual(fromRg);
    },
  );
});

describe('GREP: a pattern that backtracks exponentially never holds the process', () => {
  it('a case-insensitive (a+)+$ finishes on a line built to make it backtrack, in every engine', async () => {
    for (const search of Object.values(engines)) {
      const found = await all(search.grep({ pattern: '(a+)+$', caseInsensitive: true }));
      expect(found).toEqual([
        { path: 'code.ts', line: 4, text: '\\1 a' },
        { path: 'evil.txt', line: 2, text: 'AAAA' },
      ]);
    }
  });

  it('spelling case out matches exactly what the i flag matches', () => {
    const patterns = [
      'abc',
      '[a-z]+x',
      '[^a-z]',
      '[A-Z_]\\w',
      '\\x41b',
      '\\u00e9t\\u00C9',
      '[\\u00c0-\\u00ff]',
      'σ',
      'ſ',
      'K',
      'ß',
      '[a-\\w]',
      '\\e',
      '(?<Name>k)',
      'a{2}',
      '[]a',
      '[^]',
    ];
    const inputs = [
      'ABC',
      'aBc',
      'QX',
      'Q',
      '_',
      '1',
      'Ab',
      'ÉTé',
      'à',
      'Σ',
      'ς',
      'S',
      's',
      'ſ',
      'K',
      'k',
      'SS',
      'ẞ',
      '-',
      'E',
      'AA',
      '\u212a',
    ];
    for (const p of patterns) {
      const folded = new RegExp(prepareSource(p, true));
      const native = new RegExp(p, 'i');
      for (const s of inputs) expect(folded.test(s), `${p} on ${s}`).toBe(native.test(s));
    }
  });

  it('a pattern beyond the linear engine (a large repetition count) runs under a time budget', () => {
    const matcher = compileMatcher({ pattern: '(a+){2,30}$' }, 200);
    expect(() => matcher.matching([EVIL], 'evil.txt')).toThrow(
      expect.objectContaining({
        code: 'WORKSPACE_SEARCH',
        field: 'pattern',
        message: expect.stringContaining('evil.txt'),
      }),
    );
    const hex = compileMatcher({ pattern: '[0-9a-f]{40}' }, 200);
    expect(hex.matching(['x', files['code.ts'].split('\n')[0]!], 'code.ts')).toEqual([1]);
  });

  it('both engines agree on a large repetition count that does not backtrack', async () => {
    const pattern = '"[0-9a-f]{40}"';
    const fromRg = await all(engines.rg!.grep({ pattern }));
    expect(fromRg).toHaveLength(1);
    expect(await all(engines.js!.grep({ pattern }))).toEqual(fromRg);
    expect(await all(engines.memory!.grep({ pattern, caseInsensitive: true }))).toEqual(fromRg);
  });
});
