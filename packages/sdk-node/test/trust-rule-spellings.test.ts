// The host's rule, not the model's path, in another spelling: `Read(./.env)` and `Read(./secrets/**)`
// (the form another product's documentation teaches), a folder named alone or with a trailing slash
// (`Read(secret)`, `Write(secret/)`), `//` for an absolute path, `~/` for the home folder
// (`Read(~/.ssh/**)` let a command print the key), and an absolute path under the
// workspace. Each used to match no call at all, or only the direct `read` while grep, ast_grep,
// ast_edit, batch children and commands went past it. Every reader and writer now meets it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, expectNoLeak, NESTED, results, run, SECRET, workspace } from './read-deny-kit.js';

const CAN_HIDE = process.platform === 'linux' && existsSync('/proc/self/environ');
const ENV_MARK = SECRET.split('=')[1] as string;
const MARK = NESTED.split('=')[1] as string;

/** Every route to the two secrets: direct reads, a search, a structural search and edit, a batch, a program. */
const readAttack = (withBash: boolean) => [
  call('r1', 'read', { file_path: '.env' }),
  call('r2', 'read', { file_path: 'secret/k.ts' }),
  call('g1', 'grep', { pattern: 'hunter2|s3cr3t', path: '.' }),
  call('a1', 'ast_grep', { pattern: "'$S'", path: '.', language: 'typescript' }),
  call('b1', 'batch', { calls: [{ tool: 'read', args: { file_path: 'vault/k.ts' } }] }),
  call('p1', 'program', {
    source: "export default async function run(ctx) { return await ctx.tool('read', { file_path: './alias' }); }",
  }),
  ...(withBash ? [call('c1', 'bash', { command: 'cat .env secret/k.ts 2>&1' })] : []),
  call('ok', 'read', { file_path: 'src/public.ts' }),
];

async function attackReads(rules: readonly string[]) {
  const dir = workspace();
  const { session, events } = await run(dir, readAttack(CAN_HIDE), { permissions: { deny: [...rules] } });
  const got = results(session);
  expect(got.get('ok')).toMatchObject({ ok: true, output: expect.stringContaining('SECRET_TOKEN_NAME') });
  for (const id of ['r1', 'r2'])
    expect(got.get(id)).toMatchObject({ ok: false, output: expect.stringContaining('Permission denied') });
  expectNoLeak(dir, session, events, [SECRET, NESTED]);
  return got;
}

describe('a path rule holds however the host spells it', () => {
  it('PERM-02: Read(./.env) and Read(./secret/**) hold for read, grep, ast_grep, batch, program and commands', async () => {
    const got = await attackReads(['Read(./.env)', 'Read(./secret/**)']);
    expect(got.get('r1')?.output).toBe('Permission denied: Read(./.env)');
  });

  it('PERM-02: a folder named alone or with a trailing slash (Read(secret), Read(secret/)) covers every file in it', async () => {
    for (const rules of [
      ['Read(.env)', 'Read(secret)'],
      ['Read(.env)', 'Read(secret/)'],
    ])
      await attackReads(rules);
  });

  it('PERM-02: one leading slash as other products write it for their project (Read(/.env), Read(/secret/**)) also covers the workspace paths', async () => {
    const got = await attackReads(['Read(/.env)', 'Read(/secret/**)']);
    expect(got.get('r1')?.output).toBe('Permission denied: Read(/.env)');
  });

  it('PERM-02: an absolute rule under the workspace, plain or with // (Read(/root/.env), Read(//root/secret/**)), holds for every reader', async () => {
    const dir = workspace();
    const { session, events } = await run(dir, readAttack(CAN_HIDE), {
      permissions: { deny: [`Read(${dir}/.env)`, `Read(/${dir}/secret/**)`] },
    });
    expect(results(session).get('g1')?.output).not.toContain(ENV_MARK);
    expectNoLeak(dir, session, events, [SECRET, NESTED]);
  });

  it('PERM-02: Write(./secret/), Edit(secret) and an absolute Write rule stop write, edit, ast_edit and patch; src stays writable', async () => {
    for (const rule of ['Write(./secret/)', 'Edit(secret)', 'Write(ROOT/secret/**)']) {
      const dir = workspace();
      mkdirSync(join(dir, 'secret', 'deep'));
      writeFileSync(join(dir, 'secret', 'deep', 'd.ts'), "dispose('x');\n");
      const { session } = await run(
        dir,
        [
          call('w1', 'write', { file_path: 'secret/k.ts', content: 'pwned\n' }),
          call('w2', 'write', { file_path: 'vault/new.ts', content: 'pwned\n' }),
          call('e1', 'edit', { file_path: './secret/deep/d.ts', old_string: 'dispose', new_string: 'pwned' }),
          call('a1', 'ast_edit', { pattern: 'dispose($X)', rewrite: 'pwned($X)', path: '.', language: 'typescript' }),
          call('p1', 'patch', {
            patch: "--- a/secret/deep/d.ts\n+++ b/secret/deep/d.ts\n@@ -1 +1 @@\n-dispose('x');\n+pwned();\n",
          }),
          call('ok', 'write', { file_path: 'src/ok.ts', content: 'fine\n' }),
        ],
        { permissions: { deny: [rule.replace('ROOT', dir)] } },
      );
      const got = results(session);
      for (const id of ['w1', 'w2', 'e1', 'a1', 'p1'])
        expect(got.get(id), `${rule} ${id}`).toMatchObject({
          ok: false,
          output: expect.stringContaining('Permission denied'),
        });
      expect(readFileSync(join(dir, 'secret', 'k.ts'), 'utf8')).toContain(MARK);
      expect(readFileSync(join(dir, 'secret', 'deep', 'd.ts'), 'utf8')).toBe("dispose('x');\n");
      expect(existsSync(join(dir, 'secret', 'new.ts'))).toBe(false);
      expect(readFileSync(join(dir, 'src', 'ok.ts'), 'utf8')).toBe('fine\n');
    }
  });

  it.skipIf(!CAN_HIDE)(
    'PERM-02: Read(~/.ssh/**) covers the home folder: a command cannot print the key, the read tool cannot name it',
    async () => {
      const home = mkdtempSync(join(tmpdir(), 'a3s-home-'));
      mkdirSync(join(home, '.ssh'));
      writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE_KEY=k3y-9d2c\n');
      const saved = process.env.HOME;
      process.env.HOME = home;
      try {
        const dir = workspace();
        const { session, events } = await run(
          dir,
          [
            call('c1', 'bash', { command: 'echo "home=$HOME"; cat ~/.ssh/id_ed25519 2>&1; ls -a ~/.ssh 2>&1' }),
            call('r1', 'read', { file_path: join(home, '.ssh', 'id_ed25519') }),
          ],
          { permissions: { deny: ['Read(~/.ssh/**)'] } },
        );
        const got = results(session);
        expect(got.get('c1')?.output).toContain(`home=${home}`);
        expect(got.get('r1')).toMatchObject({ ok: false, output: 'Permission denied: Read(~/.ssh/**)' });
        expectNoLeak(dir, session, events, ['PRIVATE_KEY=k3y-9d2c']);
      } finally {
        process.env.HOME = saved;
      }
    },
  );
});
