// A session opened in a subfolder of a git repository applies the repository's a3s.config.json,
// its path rules meaning what they meant at the root: every reader (read, grep, ast_grep, batch,
// program, a command) meets them. Before, the subfolder had no config at all and read the secrets.
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionConfigurationError } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { Agent } from '../src/index.js';
import { tempRepo } from './kit.js';
import { call, expectNoLeak, NESTED, results, run, SECRET } from './read-deny-kit.js';

const CAN_HIDE = process.platform === 'linux' && existsSync('/proc/self/environ');

/** A git repository whose `pkg/` holds the secrets, with `config` as the root's a3s.config.json. */
function repo(config: unknown): { root: string; pkg: string } {
  const root = tempRepo();
  const pkg = join(root, 'pkg');
  mkdirSync(join(pkg, 'secret'), { recursive: true });
  mkdirSync(join(pkg, 'src'));
  writeFileSync(join(pkg, '.env'), `${SECRET}\n`);
  writeFileSync(join(pkg, 'secret', 'k.ts'), `export const KEY = '${NESTED}';\n`);
  writeFileSync(join(pkg, 'src', 'public.ts'), "export const SECRET_TOKEN_NAME = 'SECRET_TOKEN';\n");
  symlinkSync(join(pkg, '.env'), join(pkg, 'alias'));
  symlinkSync(join(pkg, 'secret'), join(pkg, 'vault'));
  writeFileSync(join(root, 'a3s.config.json'), JSON.stringify(config));
  return { root, pkg };
}

describe('a session in a subfolder of a git repository', () => {
  it("holds every reader to the root config's deny rules, anchored at the root", async () => {
    const { pkg } = repo({ permissions: { deny: ['Read(**/.env)', 'Read(pkg/secret/**)'] } });
    const { session, events } = await run(pkg, [
      call('r1', 'read', { file_path: '.env' }),
      call('r2', 'read', { file_path: 'secret/k.ts' }),
      call('g1', 'grep', { pattern: 'hunter2|s3cr3t', path: '.' }),
      call('a1', 'ast_grep', { pattern: "'$S'", path: '.', language: 'typescript' }),
      call('b1', 'batch', { calls: [{ tool: 'read', args: { file_path: 'vault/k.ts' } }] }),
      call('p1', 'program', {
        source: "export default async function run(ctx) { return await ctx.tool('read', { file_path: './alias' }); }",
      }),
      ...(CAN_HIDE ? [call('c1', 'bash', { command: 'cat .env secret/k.ts 2>&1' })] : []),
      call('ok', 'read', { file_path: 'src/public.ts' }),
    ]);
    const got = results(session);
    expect(got.get('ok')).toMatchObject({ ok: true, output: expect.stringContaining('SECRET_TOKEN_NAME') });
    for (const id of ['r1', 'r2'])
      expect(got.get(id)).toMatchObject({ ok: false, output: expect.stringContaining('Permission denied') });
    expectNoLeak(pkg, session, events, [SECRET, NESTED]);
  });

  it('reads a rule written for the root as the root meant it, not as a path in the subfolder', async () => {
    // `secret/**` at the root is root/secret: pkg/secret is another folder, which it does not cover.
    const { pkg } = repo({ permissions: { deny: ['Read(secret/**)'] } });
    const { session } = await run(pkg, [call('r1', 'read', { file_path: 'secret/k.ts' })]);
    expect(results(session).get('r1')).toMatchObject({ ok: true, output: expect.stringContaining('s3cr3t') });
  });

  it('refuses the session with SESSION_CONFIGURATION naming a rule that cannot keep its meaning, and the file', async () => {
    const { root, pkg } = repo({ permissions: { allow: ['Read(src/**)', 'Read(../other/**)'] } });
    const agent = await Agent.create({ model: new ScriptedLlmClient([{ text: 'no' }]), workspaceConfig: true });
    const opening = agent.session(pkg);
    await expect(opening).rejects.toBeInstanceOf(SessionConfigurationError);
    await expect(opening).rejects.toMatchObject({
      code: 'SESSION_CONFIGURATION',
      field: 'permissions.allow[1]',
      message: expect.stringContaining(`rule 'Read(../other/**)' of ${join(root, 'a3s.config.json')}`),
    });
    await agent.close();
  });
});
