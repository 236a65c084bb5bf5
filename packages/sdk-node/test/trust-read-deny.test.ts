// The read side of issue 14's respelling attack: a path deny rule for reads (`Read(.env)`,
// `Read(secret/**)`) holds for every file any tool reads, lists or searches through the workspace
// (read, grep, glob, ls, ast_grep, lsp, batch and program children), however the path is spelled;
// searches over a folder leave denied files out. The secret never reaches a tool result, an event
// or the fact log.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, DENY, expectNoLeak, NESTED, results, run, SECRET, workspace } from './read-deny-kit.js';

describe('a read deny rule holds for every spelling and every reader', () => {
  it('PERM-02: Read(.env) and Read(secret/**) refuse ./, .., //, absolute, symlinked file and folder spellings', async () => {
    const dir = workspace();
    const spellings: [string, string][] = [
      ['.env', 'Read(.env)'],
      ['./.env', 'Read(.env)'],
      ['src/../.env', 'Read(.env)'],
      ['.//.env', 'Read(.env)'],
      [join(dir, '.env'), 'Read(.env)'],
      [`${dir}//./src/../.env`, 'Read(.env)'],
      ['alias', 'Read(.env)'],
      ['secret/k.ts', 'Read(secret/**)'],
      ['./secret//k.ts', 'Read(secret/**)'],
      ['vault/k.ts', 'Read(secret/**)'],
      [join(dir, 'vault', 'k.ts'), 'Read(secret/**)'],
    ];
    const { session, events } = await run(
      dir,
      spellings.map(([p], i) => call(`r${i}`, 'read', { file_path: p })),
      { permissions: DENY },
    );
    const got = results(session);
    expect(got.size).toBe(spellings.length);
    spellings.forEach(([p, rule], i) => {
      const r = got.get(`r${i}`);
      expect(r?.ok, p).toBe(false);
      expect(r?.output, p).toContain(`Permission denied: ${rule}`);
    });
    const denials = events.map((e) => JSON.parse(e) as { type: string }).filter((e) => e.type === 'permission_denied');
    expect(denials.length).toBe(spellings.length);
    expectNoLeak(dir, session, events, [SECRET, NESTED]);
  });

  it('PERM-02: the rule is exact on a case-sensitive file system (.ENV is another file) and other files stay readable', async () => {
    const dir = workspace();
    writeFileSync(join(dir, '.ENV'), 'PUBLIC=yes\n');
    const { session } = await run(
      dir,
      [call('r1', 'read', { file_path: '.ENV' }), call('r2', 'read', { file_path: './src/public.ts' })],
      { permissions: DENY },
    );
    expect(results(session).get('r1')).toMatchObject({ ok: true, output: expect.stringContaining('PUBLIC=yes') });
    expect(results(session).get('r2')).toMatchObject({
      ok: true,
      output: expect.stringContaining('SECRET_TOKEN_NAME'),
    });
  });

  it("PERM-02/PTC-03: reads nested in batch and program (ctx.readFile, ctx.tool('read')) are refused", async () => {
    const dir = workspace();
    const source = `async function run(ctx) {
      const out = [];
      for (const p of ['./.env', 'alias', 'vault/k.ts']) {
        try { out.push(await ctx.readFile(p)); } catch (e) { out.push('refused ' + String(e && e.message)); }
      }
      try { out.push(JSON.stringify(await ctx.tool('read', { file_path: 'src/../.env' }))); } catch (e) { out.push('refused ' + String(e && e.message)); }
      return out.join('\\n');
    }`;
    const { session, events } = await run(
      dir,
      [
        call('b1', 'batch', {
          calls: [
            { tool: 'read', args: { file_path: './.env' } },
            { tool: 'read', args: { file_path: 'vault/k.ts' } },
            { tool: 'read', args: { file_path: 'src/public.ts' } },
          ],
        }),
        call('p1', 'program', { type: 'script', language: 'javascript', source }),
      ],
      { permissions: DENY },
    );
    const batch = results(session).get('b1')?.output ?? '';
    expect(batch.match(/Permission denied: Read\(/g)?.length).toBe(2);
    expect(batch).toContain('SECRET_TOKEN_NAME');
    const program = results(session).get('p1')?.output ?? '';
    expect(program.match(/Permission denied: Read\(/g)?.length).toBe(4);
    expectNoLeak(dir, session, events, [SECRET, NESTED]);
  });
});

describe('searches and listings leave denied files out', () => {
  it('PERM-02: grep over . (every output mode), glob ** and ls never show a denied file; a search of the file itself is refused', async () => {
    const dir = workspace();
    const { session, events } = await run(
      dir,
      [
        call('g1', 'grep', { pattern: 'SECRET_TOKEN|NESTED_KEY', path: '.' }),
        call('g2', 'grep', { pattern: 'SECRET_TOKEN|NESTED_KEY', output_mode: 'files_with_matches' }),
        call('g3', 'grep', { pattern: 'SECRET_TOKEN|NESTED_KEY', output_mode: 'count' }),
        call('g4', 'grep', { pattern: 'hunter2', path: './.env' }),
        call('g5', 'grep', { pattern: 'SECRET', path: 'vault' }),
        call('f1', 'glob', { pattern: '**/*' }),
        call('f2', 'glob', { pattern: '**/*.ts', path: 'vault' }),
        call('l1', 'ls', { path: '.' }),
        call('l2', 'ls', { path: 'vault' }),
      ],
      { permissions: DENY },
    );
    const got = results(session);
    expect(got.get('g1')).toMatchObject({ ok: true, output: expect.stringContaining('src/public.ts') });
    for (const id of ['g1', 'g2', 'g3', 'f1']) {
      expect(got.get(id)?.output, id).not.toMatch(/\.env|secret\/k\.ts|vault\/k\.ts|alias/);
    }
    expect(got.get('g2')?.output).toContain('src/public.ts');
    expect(got.get('f1')?.output).toContain('src/public.ts');
    expect(got.get('g4')).toMatchObject({
      ok: false,
      output: expect.stringContaining('Permission denied: Read(.env)'),
    });
    expect(got.get('g5')?.output).not.toContain('k.ts');
    expect(got.get('f2')?.output).not.toContain('k.ts');
    expect(got.get('l1')).toMatchObject({ ok: true, output: expect.stringContaining('src') });
    expect(got.get('l1')?.output).not.toMatch(/\.env|alias/);
    expect(got.get('l2')?.output).not.toContain('k.ts');
    expectNoLeak(dir, session, events, [SECRET, NESTED]);
  });

  it('PERM-02: without a read deny rule the same grep finds the secret (the filter is what hides it)', async () => {
    const dir = workspace();
    const { session } = await run(dir, [call('g1', 'grep', { pattern: 'SECRET_TOKEN=', path: '.' })]);
    expect(results(session).get('g1')?.output).toContain('.env');
  });

  it('PERM-02: ast_grep over the workspace skips a denied file, also when it is named through a linked folder', async () => {
    const dir = workspace();
    const { session, events } = await run(
      dir,
      [
        call('a1', 'ast_grep', { pattern: 'export const $X = $Y', language: 'typescript' }),
        call('a2', 'ast_grep', { pattern: 'export const $X = $Y', language: 'typescript', path: 'vault/k.ts' }),
      ],
      { permissions: DENY },
    );
    const got = results(session);
    expect(got.get('a1')?.output).toContain('SECRET_TOKEN_NAME');
    expect(got.get('a1')?.output).not.toContain('k.ts');
    // Named directly (through the linked folder), the denied file is refused with the rule, not searched.
    expect(got.get('a2')).toMatchObject({
      ok: false,
      output: expect.stringContaining('Permission denied'),
      metadata: { error_code: 'PERMISSION_DENIED' },
    });
    expectNoLeak(dir, session, events, [NESTED]);
  });
});

describe('lsp reads its file through the workspace', () => {
  it('PERM-02: lsp hover and definition on a denied file (through a linked folder) are refused before any server starts', async () => {
    const dir = workspace();
    const { session, events } = await run(
      dir,
      [
        call('h1', 'lsp', { operation: 'hover', file: 'vault/k.ts', line: 1, symbol: 'KEY' }),
        call('d1', 'lsp', { operation: 'definition', file: './secret/k.ts', line: 1, symbol: 'KEY' }),
      ],
      { permissions: DENY },
    );
    for (const id of ['h1', 'd1'])
      expect(results(session).get(id), id).toMatchObject({
        ok: false,
        output: expect.stringContaining('Permission denied: Read(secret/**)'),
      });
    expectNoLeak(dir, session, events, [NESTED]);
  });
});
