// A confirmation covers the paths the person was shown, not where a symbolic link leads. The
// repository holds `src/link.ts -> ../secret/x.ts`; the host asks about writes and reads under
// both `src/**` and `secret/**`, and its approver allows `src/` paths only. The model names the
// link: the approver sees `src/link.ts` under `Write(src/**)` and approves, and the write used to
// land in `secret/x.ts`, which its own ask rule was never asked about. Now such a call is refused
// naming the rule it skipped; a link that stays under the confirmed rule, and the file named by
// its own path, are asked about and handled as usual. An allow rule likewise covers where a write
// lands: `Write(src/**)` created files in `secret/` through a linked folder without asking.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient, type ScriptedTurn } from '@a3s-code/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolInvoker, ToolRegistry } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { LocalWorkspace, workspaceToolPack } from '@a3s-code/tools-workspace';
import { Agent, type ConfirmationRequest, type Session } from '../src/index.js';
import { tempRepo, toolResults } from './kit.js';

const opened: Session[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const call = (id: string, name: string, args: Record<string, unknown>): ScriptedTurn => ({
  tool_calls: [{ id, name, args }],
});

function repo(): string {
  const dir = tempRepo();
  mkdirSync(join(dir, 'secret'));
  writeFileSync(join(dir, 'secret', 'x.ts'), 'export const X = "vault-5e1f";\n');
  writeFileSync(join(dir, 'src', 'real.ts'), 'export const R = 1;\n');
  symlinkSync('../secret/x.ts', join(dir, 'src', 'link.ts'));
  symlinkSync('real.ts', join(dir, 'src', 'same.ts'));
  return dir;
}

async function open(dir: string, turns: ScriptedTurn[], rules: readonly string[]) {
  const asked: ConfirmationRequest[] = [];
  const model = new ScriptedLlmClient([...turns, { text: 'Done.' }]);
  const session = await (await Agent.create({ model })).session(dir, {
    gate: { continuation: { enabled: false } },
    permissions: { ask: [...rules] },
    onConfirm: (r) => {
      asked.push(r);
      return { approved: String((r.args as { file_path?: unknown }).file_path).startsWith('src/') };
    },
  });
  opened.push(session);
  await session.send('go').catch(() => undefined); // a write leaves the gate unverified
  return { session, asked };
}

describe('a confirmation covers the path shown, not where a link leads', () => {
  it('PERM-06: write and edit confirmed for src/link.ts do not reach secret/x.ts; a link inside src/ is written', async () => {
    const dir = repo();
    const { session, asked } = await open(
      dir,
      [
        call('w1', 'write', { file_path: 'src/link.ts', content: 'pwned\n' }),
        call('e1', 'edit', { file_path: 'src/link.ts', old_string: 'vault', new_string: 'pwned' }),
        call('w2', 'write', { file_path: 'src/same.ts', content: 'export const R = 2;\n' }),
        call('w3', 'write', { file_path: 'secret/x.ts', content: 'pwned\n' }),
      ],
      ['Write(src/**)', 'Edit(src/**)', 'Write(secret/**)'],
    );
    expect(asked.map((r) => [r.toolId, r.rule])).toEqual([
      ['w1', 'Write(src/**)'],
      ['e1', 'Edit(src/**)'],
      ['w2', 'Write(src/**)'],
      ['w3', 'Write(secret/**)'],
    ]);
    const got = toolResults(session);
    for (const id of ['w1', 'e1'])
      expect(got.get(id)?.output, id).toBe(
        "Permission denied: Write(secret/**) needs a confirmation this call did not get (writing src/link.ts); name the file by its own path in the call's arguments, so that it can be confirmed",
      );
    expect(got.get('w2')?.ok).toBe(true);
    // w3 names secret/x.ts itself: the approver is asked under its own rule and refuses it.
    expect(readFileSync(join(dir, 'secret', 'x.ts'), 'utf8')).toBe('export const X = "vault-5e1f";\n');
    expect(readFileSync(join(dir, 'src', 'real.ts'), 'utf8')).toBe('export const R = 2;\n');
  });

  it('PERM-06: a read confirmed for src/link.ts does not show secret/x.ts; src/same.ts is read', async () => {
    const dir = repo();
    const { session } = await open(
      dir,
      [call('r1', 'read', { file_path: 'src/link.ts' }), call('r2', 'read', { file_path: 'src/same.ts' })],
      ['Read(src/**)', 'Read(secret/**)'],
    );
    const got = toolResults(session);
    expect(got.get('r1')).toMatchObject({
      ok: false,
      output: expect.stringContaining('Permission denied: Read(secret/**) needs a confirmation this call did not get'),
    });
    expect(JSON.stringify(session.core.store.log.facts)).not.toContain('vault-5e1f');
    expect(got.get('r2')).toMatchObject({ ok: true, output: expect.stringContaining('export const R = 1;') });
  });

  it('PERM-03: an allow rule covers where a write lands: Write(src/**) does not reach secret/ through a linked folder', async () => {
    const dir = repo();
    symlinkSync('../secret', join(dir, 'src', 'dirlink'));
    const model = new ScriptedLlmClient([
      call('w1', 'write', { file_path: 'src/dirlink/new.ts', content: 'pwned\n' }),
      call('w2', 'write', { file_path: 'src/same.ts', content: 'export const R = 3;\n' }),
      { text: 'Done.' },
    ]);
    const asked: ConfirmationRequest[] = [];
    const session = await (await Agent.create({ model })).session(dir, {
      gate: { continuation: { enabled: false } },
      permissions: { allow: ['Write(src/**)'] },
      onConfirm: (r) => {
        asked.push(r);
        return { approved: false };
      },
    });
    opened.push(session);
    await session.send('go').catch(() => undefined);
    const got = toolResults(session);
    expect(got.get('w1')).toMatchObject({
      ok: false,
      output:
        "Permission denied: src/dirlink/new.ts leads through a symbolic link to secret/new.ts, which no allow rule covers; the call was allowed to write the path it names only. Name secret/new.ts itself in the call's arguments, so that it can be confirmed",
    });
    expect(existsSync(join(dir, 'secret', 'new.ts'))).toBe(false);
    expect(got.get('w2')?.ok).toBe(true);
    expect(readFileSync(join(dir, 'src', 'real.ts'), 'utf8')).toBe('export const R = 3;\n');
    expect(asked).toEqual([]);
  });
});

// The SDK allows reads everywhere by default, so a read allow rule with a path narrows nothing
// there; a host on core's kernel can allow `Read(src/**)` alone, and a link must not widen it.
describe('the kernel: an allow rule for reads covers where a read lands', () => {
  it('PERM-03: Read(src/**) allowed unasked does not show secret/x.ts through src/link.ts; src/same.ts is read', async () => {
    const dir = repo();
    const registry = new ToolRegistry({ capabilities: ['fs.read', 'fs.write', 'fs.list', 'search'] });
    registry.registerPack(workspaceToolPack);
    const asked: unknown[] = [];
    const invoker = new ToolInvoker({
      registry,
      workspace: new LocalWorkspace({ root: dir }),
      policy: { allow: ['Read(src/**)'] },
      confirmation: {
        confirm: async (r) => {
          asked.push(r);
          return { approved: false };
        },
      },
    });
    const { context } = createTestInvocation();
    const read = (id: string, file_path: string) =>
      invoker.invoke({ id, name: 'read', args: { file_path } }, context, 'agent');
    const r1 = await read('r1', 'src/link.ts');
    expect(r1.output).toBe(
      "Permission denied: src/link.ts leads through a symbolic link to secret/x.ts, which no allow rule covers; the call was allowed to read the path it names only. Name secret/x.ts itself in the call's arguments, so that it can be confirmed",
    );
    const r2 = await read('r2', 'src/same.ts');
    expect(r2).toMatchObject({ ok: true, output: expect.stringContaining('export const R = 1;') });
    expect(asked).toEqual([]);
    invoker.close();
  });
});
