// The bash tool's limits through the real kernel: a command too long for one command line, or one
// holding a NUL byte, is refused as invalid arguments before the permission rules read it, in
// milliseconds whatever its size, and never starts a process (no change record).
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolInvoker, ToolRegistry, type PermissionPolicyConfig } from '@a3s-code/core';
import { createTestInvocation } from '@a3s-code/core/testing';
import { LocalWorkspace } from '../../local/local-workspace.js';
import { workspaceToolPack } from '../../pack.js';
import { tempDir } from '../../test-support/harness.js';
import { BASH_COMMAND_MAX_BYTES } from './bash-tool.js';

const tmp = tempDir();
const outside = tempDir('a3s-outside-');
symlinkSync(outside.dir, join(tmp.dir, 'link-out'));
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(async () => {
  await ws.close();
  tmp.cleanup();
  outside.cleanup();
});

// Rules of every kind over bash, so that a call that reached them would be judged by each.
const RULES: PermissionPolicyConfig = {
  allow: ['Bash(echo *)', 'Bash(true)', 'Bash(: *)', 'Bash(printf *)'],
  deny: ['Bash(rm -rf *)', 'Bash(curl *)'],
  ask: ['Bash(git push:*)'],
};

function kernel(policy: PermissionPolicyConfig = RULES): ToolInvoker {
  const registry = new ToolRegistry({ capabilities: ws.capabilities });
  registry.registerPack(workspaceToolPack);
  return new ToolInvoker({ registry, workspace: ws, policy });
}

async function bash(args: Record<string, unknown>, policy?: PermissionPolicyConfig) {
  const t0 = performance.now();
  const r = await kernel(policy).invoke({ id: 'c1', name: 'bash', args }, createTestInvocation({ yolo: true }).context);
  return { r, ms: performance.now() - t0 };
}

describe('bash command limits', () => {
  it('BND-01: a 4 MB command is refused before the rules read it, in milliseconds, naming the byte limit', async () => {
    await bash({ command: 'true' }); // loads what every call needs
    const command = `echo ${'a'.repeat(4_000_000)} > big.txt`;
    const { r, ms } = await bash({ command });
    expect(r).toMatchObject({ ok: false, errorKind: 'invalid_args' });
    expect(r.error).toMatchObject({ code: 'INVALID_TOOL_ARGS', field: 'args.command' });
    expect(r.output).toContain(
      `is 4000015 bytes (UTF-8); a command line takes at most ${BASH_COMMAND_MAX_BYTES} bytes`,
    );
    expect(r.output).toMatch(/write tool and run that file/);
    // Refused before it ran: no process, no change with unknown paths in the record.
    expect(r.metadata).toEqual({ error_code: 'INVALID_TOOL_ARGS' });
    expect(existsSync(join(tmp.dir, 'big.txt'))).toBe(false);
    // The rules took tens of seconds to read such a command; the refusal does not read it at all.
    expect(ms).toBeLessThan(3_000);
  });

  it('BND-01: the limit counts UTF-8 bytes, not characters; the largest command that fits runs', async () => {
    const wide = await bash({ command: `: ${'é'.repeat(70_000)}` });
    expect(wide.r.error).toMatchObject({ code: 'INVALID_TOOL_ARGS', field: 'args.command' });
    expect(wide.r.output).toContain('is 140002 bytes (UTF-8)');
    const fits = `: ${'a'.repeat(BASH_COMMAND_MAX_BYTES - 2)}`;
    const ran = await bash({ command: fits });
    expect(ran.r).toMatchObject({ ok: true, exitCode: 0 });
    const over = await bash({ command: `${fits}a` });
    expect(over.r.error).toMatchObject({ code: 'INVALID_TOOL_ARGS' });
    expect(over.r.output).toContain(`is ${BASH_COMMAND_MAX_BYTES + 1} bytes`);
  });

  it('BND-01: a NUL byte in the command or the folder is refused as invalid arguments, not a failed spawn', async () => {
    const nul = await bash({ command: 'echo a\u0000b > nul.txt' });
    expect(nul.r).toMatchObject({
      ok: false,
      errorKind: 'invalid_args',
      metadata: { error_code: 'INVALID_TOOL_ARGS' },
    });
    expect(nul.r.output).toContain('args.command: contains a NUL byte (at character 6)');
    expect(existsSync(join(tmp.dir, 'nul.txt'))).toBe(false);
    const cwd = await bash({ command: 'pwd', cwd: 'sub\u0000' });
    expect(cwd.r.error).toMatchObject({ code: 'INVALID_TOOL_ARGS', field: 'args.cwd' });
  });

  it('a folder outside the workspace, named or through a symbolic link, refuses the command before it starts: no change recorded', async () => {
    for (const cwd of ['../..', outside.dir, 'link-out']) {
      const { r } = await bash({ command: 'touch escaped.txt', cwd });
      expect(r.error, cwd).toMatchObject({ code: 'WORKSPACE_PATH', field: 'cwd' });
      expect(r.metadata, cwd).toEqual({ error_code: 'WORKSPACE_PATH' });
    }
    expect(existsSync(join(outside.dir, 'escaped.txt'))).toBe(false);
  });

  it('BND-04: one endless line without a newline is capped with bounded memory, reported truncated, and the deadline holds', async () => {
    const rss0 = process.memoryUsage().rss;
    const { r, ms } = await bash({ command: "yes | tr -d '\\n'", timeout: 1_500 }, {});
    expect(ms).toBeLessThan(5_000);
    expect(r.metadata).toMatchObject({ timed_out: true, stdout: { truncated: true } });
    expect((r.metadata as { stdout: { total_bytes: number } }).stdout.total_bytes).toBeGreaterThan(1_000_000);
    expect(r.output).toMatch(/bytes omitted of \d+ total/);
    expect(r.output).toMatch(/\[timed out after 1500 ms: the process group was killed\]$/);
    expect(r.output.length).toBeLessThan(40_000);
    expect(process.memoryUsage().rss - rss0).toBeLessThan(160 * 1024 * 1024);
  });

  it('a command reading its standard input gets end-of-file at once: it never waits for input', async () => {
    const { r, ms } = await bash({ command: 'cat; read x; echo "got[$x]"', timeout: 20_000 }, {});
    expect(r).toMatchObject({ ok: true, exitCode: 0, output: 'got[]\n' });
    expect(ms).toBeLessThan(5_000);
  });

  it('BND-01: a timeout that is not a whole number of milliseconds in range, or an env override, is refused before anything runs', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ timeout: 0 }, 'args.timeout', />= 1/],
      [{ timeout: -5 }, 'args.timeout', />= 1/],
      [{ timeout: 1e12 }, 'args.timeout', /<= 600000/],
      [{ timeout: 1.5 }, 'args.timeout', /integer/],
      [{ timeout: '100' }, 'args.timeout', /integer/],
      [{ env: { PATH: '/tmp' } }, 'args.env', /not an allowed property/],
    ];
    for (const [extra, field, message] of cases) {
      const { r } = await bash({ command: 'touch ran.txt', ...extra });
      expect(r.error, field).toMatchObject({ code: 'INVALID_TOOL_ARGS', field });
      expect(r.output, field).toMatch(message);
    }
    expect(existsSync(join(tmp.dir, 'ran.txt'))).toBe(false);
  });
});
