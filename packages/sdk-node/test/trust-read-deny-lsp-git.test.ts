// The read deny rules against tools that read the repository on their own: a language server
// answers with other files' lines, types and problems, and git prints tracked files' content.
// Each attack asks for a denied file's content by another route; the secret reaches no tool
// result, event or fact log, and the same call without the rule shows it (the filter is what hides it).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, DENY, expectNoLeak, NESTED, results, run, SECRET, workspace } from './read-deny-kit.js';

const MARK = NESTED.split('=')[1] as string;
const ENV_MARK = SECRET.split('=')[1] as string;

function hasTsServer(): boolean {
  try {
    createRequire(join(process.cwd(), 'packages/tools-resource/package.json')).resolve(
      'typescript-language-server/package.json',
    );
    return true;
  } catch {
    return false;
  }
}

/** The workspace as a TypeScript project whose public file uses the secret's declaration. */
function tsWorkspace(): string {
  const dir = workspace();
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { lib: ['es2022'], strict: true, noEmit: true, types: [] },
      include: ['src', 'secret'],
    }),
  );
  writeFileSync(
    join(dir, 'secret', 'k.ts'),
    `import { SECRET_TOKEN_NAME } from '../src/public.js';\nexport const KEY = '${NESTED}';\nexport const bad: 1 = KEY;\nexport const name = SECRET_TOKEN_NAME;\n`,
  );
  writeFileSync(join(dir, 'src', 'use.ts'), "import { KEY } from '../secret/k.js';\nexport const size = KEY.length;\n");
  return dir;
}

// The file's diagnostics first: a cold server answers before it has loaded the whole project.
const lspAttack = [
  call('w0', 'lsp', { operation: 'diagnostics', file: 'src/use.ts' }),
  call('r1', 'lsp', { operation: 'references', file: 'src/use.ts', line: 2, symbol: 'KEY' }),
  call('d1', 'lsp', { operation: 'definition', file: 'src/use.ts', line: 2, symbol: 'KEY' }),
  call('h1', 'lsp', { operation: 'hover', file: 'src/use.ts', line: 2, symbol: 'KEY' }),
  call('s1', 'lsp', { operation: 'symbols', file: 'src/use.ts', query: 'KEY' }),
  call('p1', 'lsp', { operation: 'diagnostics', file: '*' }),
  call('n1', 'lsp_rename', { file: 'src/public.ts', line: 1, symbol: 'SECRET_TOKEN_NAME', new_name: 'RENAMED' }),
];

describe.skipIf(!hasTsServer())('lsp answers pointing into a denied file', () => {
  // The server runs with the denied file out of its reach (where the workspace can hide files from
  // a process, as here on Linux): no answer can point into it, and a rename cannot reach it.
  it('PERM-02: definition, references, hover, workspace symbols and the project checker leave the denied file out; lsp_rename does not edit it', async () => {
    const dir = tsWorkspace();
    const secretBefore = readFileSync(join(dir, 'secret', 'k.ts'), 'utf8');
    const { session, events } = await run(dir, lspAttack, { permissions: DENY });
    const got = results(session);
    expect(got.get('w0')?.output).toContain("Cannot find module '../secret/k.js'");
    expect(got.get('d1')?.output).toBe("1 location:\nsrc/use.ts:1: import { KEY } from '../secret/k.js';");
    expect(got.get('r1')?.output).toMatch(/src\/use\.ts:2:/);
    expect(got.get('h1')?.output).not.toContain(MARK);
    expect(got.get('s1')?.output).not.toMatch(/^(secret|vault)\//m);
    expect(got.get('p1')?.output).not.toMatch(/^secret\//m);
    expect(got.get('n1')?.output).toBe(
      "Renamed 'SECRET_TOKEN_NAME' to 'RENAMED': 1 edit in 1 file: src/public.ts\n[files the read rules hide are out of the language server's reach: a reference in one of them was not looked for, nor renamed]",
    );
    for (const [id, r] of got) expect(r.output, id).not.toMatch(/secret\/k\.ts|vault/);
    expect(readFileSync(join(dir, 'secret', 'k.ts'), 'utf8')).toBe(secretBefore);
    expectNoLeak(dir, session, events, [NESTED]);
  }, 60_000);

  // This control shows that without the rule the same definition points into the file and shows
  // the secret, and what the write rule alone does.
  it('PERM-02: without the read rule the definition shows the secret; a write rule alone makes lsp_rename change nothing', async () => {
    const dir = tsWorkspace();
    const before = readFileSync(join(dir, 'src', 'public.ts'), 'utf8');
    const control = lspAttack.filter((c) => ['w0', 'd1', 'n1'].includes(c.tool_calls?.[0]?.id ?? ''));
    const { session } = await run(dir, control, { permissions: { deny: ['Write(secret/**)'] } });
    const got = results(session);
    expect(got.get('d1')?.output).toContain(MARK);
    expect(got.get('n1')?.ok).toBe(false);
    expect(got.get('n1')?.output).toContain('Permission denied: Write(secret/**)');
    expect(readFileSync(join(dir, 'src', 'public.ts'), 'utf8')).toBe(before);
    expect(readFileSync(join(dir, 'secret', 'k.ts'), 'utf8')).not.toContain('RENAMED');
  }, 60_000);
});

/** The workspace with the secrets committed, then changed (staged and not) next to a public change. */
function gitWorkspace(): string {
  const dir = workspace();
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  git('add', '.env', 'secret', 'src');
  git('commit', '-qm', 'add config');
  writeFileSync(join(dir, 'secret', 'k.ts'), `export const KEY = '${NESTED}';\nexport const MORE = 1;\n`);
  git('add', 'secret');
  writeFileSync(join(dir, '.env'), `${SECRET}\nMORE=1\n`);
  writeFileSync(
    join(dir, 'src', 'public.ts'),
    "export const SECRET_TOKEN_NAME = 'SECRET_TOKEN';\nexport const x = 1;\n",
  );
  return dir;
}

const gitAttack = [
  call('st', 'git', { operation: 'status' }),
  call('g1', 'git', { operation: 'diff' }),
  call('g2', 'git', { operation: 'diff', staged: true }),
  call('g3', 'git', { operation: 'diff', ref: 'HEAD~1..HEAD' }),
  call('g4', 'git', { operation: 'diff', ref: 'HEAD~1', path: '.' }),
  call('g5', 'git', { operation: 'diff', ref: 'HEAD:src/public.ts..HEAD:.env' }),
  call('g6', 'git', { operation: 'diff', path: './.env' }),
  call('g7', 'git', { operation: 'diff', ref: 'HEAD~1', path: 'secret' }),
  call('l1', 'git', { operation: 'log', path: 'secret/k.ts' }),
  call('w1', 'git', { operation: 'worktree', action: 'create', path: 'copy', name: 'copy' }),
];

describe('git output under read deny rules', () => {
  it('PERM-02: status, diff (worktree, staged, ranges, folders) leave denied files out; blob diffs, denied paths and a copying worktree are refused', async () => {
    const dir = gitWorkspace();
    const { session, events } = await run(dir, gitAttack, { permissions: DENY });
    const got = results(session);
    expect(got.get('st')?.output).toContain('src/public.ts');
    expect(got.get('g1')?.output).toContain('export const x = 1');
    expect(got.get('g3')?.output).toContain('src/public.ts');
    for (const id of ['st', 'g1', 'g2', 'g3', 'g4', 'g7'])
      expect(got.get(id)?.output, id).not.toMatch(/\.env|secret\/k\.ts|MORE/);
    expect(got.get('g5')).toMatchObject({ ok: false, output: expect.stringContaining('compares commits only') });
    expect(got.get('g6')).toMatchObject({
      ok: false,
      output: expect.stringContaining('Permission denied: Read(.env)'),
    });
    expect(got.get('l1')).toMatchObject({ ok: false, output: expect.stringContaining('Read(secret/**)') });
    expect(got.get('w1')).toMatchObject({ ok: false, output: expect.stringContaining('Permission denied: Read(') });
    expect(existsSync(join(dir, 'copy'))).toBe(false);
    expectNoLeak(dir, session, events, [SECRET, NESTED]);
  });

  it('PERM-02: without the rule the same git calls print the secrets (the filter is what hides them)', async () => {
    const dir = gitWorkspace();
    const { session } = await run(dir, gitAttack.slice(0, 6));
    const got = results(session);
    expect(got.get('g1')?.output).toContain(ENV_MARK);
    expect(got.get('g2')?.output).toContain('MORE = 1');
    expect(got.get('g3')?.output).toContain(MARK);
    expect(got.get('g5')?.output).toContain(ENV_MARK);
  });
});
