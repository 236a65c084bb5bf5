// The local exec service with node's child_process directly: environment, input on stdin, a
// command that never reads its input, a working directory that is not there, a missing shell
// feature, and output streamed while the command runs.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/harness.js';
import { LocalWorkspace } from './local-workspace.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
afterAll(async () => {
  await ws.close();
  tmp.cleanup();
});

describe('LocalExec', () => {
  it('passes the host environment, the request’s variables and PAGER=cat; runs in the working directory', async () => {
    const r = await ws.exec!.run({ command: 'echo "$HOME|$A3S_T|$PAGER|$GIT_PAGER"; pwd', env: { A3S_T: 'x y' } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout.head).toBe(`${process.env.HOME}|x y|cat|cat\n${tmp.dir}\n`);
  });

  it('leaves model-provider credentials out of commands, unless the workspace passes one on; other variables stay', async () => {
    const saved = { a: process.env.OPENAI_API_KEY, b: process.env.ANTHROPIC_API_KEY, c: process.env.A3S_SEEN };
    process.env.OPENAI_API_KEY = 'sk-test-openai-0000';
    process.env.ANTHROPIC_API_KEY = 'sk-ant-test-0000';
    process.env.A3S_SEEN = 'yes';
    const passing = new LocalWorkspace({ root: tmp.dir, passEnv: ['ANTHROPIC_API_KEY'] });
    try {
      const command =
        'echo "${OPENAI_API_KEY-unset}|${ANTHROPIC_API_KEY-unset}|$A3S_SEEN"; env | grep -c _API_KEY || true';
      expect((await ws.exec!.run({ command })).stdout.head).toBe('unset|unset|yes\n0\n');
      expect((await passing.exec!.run({ command })).stdout.head).toBe('unset|sk-ant-test-0000|yes\n1\n');
      expect(() => new LocalWorkspace({ root: tmp.dir, passEnv: 'OPENAI_API_KEY' as never })).toThrow(/passEnv/);
    } finally {
      await passing.close();
      for (const [k, v] of [
        ['OPENAI_API_KEY', saved.a],
        ['ANTHROPIC_API_KEY', saved.b],
        ['A3S_SEEN', saved.c],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('writes stdin and closes it; a command that never reads it is not an error', async () => {
    const r = await ws.exec!.run({ command: 'tr a-z A-Z', stdin: 'hello\n' });
    expect(r.stdout.head).toBe('HELLO\n');
    const big = 'x'.repeat(1024 * 1024);
    const ignored = await ws.exec!.run({ command: 'exit 3', stdin: big });
    expect(ignored.exitCode).toBe(3);
    // Without input, stdin is closed: a read sees end of file at once.
    const none = await ws.exec!.run({ command: 'cat; echo done' });
    expect(none.stdout.head).toBe('done\n');
  });

  it('streams output as it comes, keeps exit codes and signals, and refuses a working directory that is not there', async () => {
    const seen: string[] = [];
    const r = await ws.exec!.run({
      command: 'echo one; echo two >&2; kill -TERM $$',
      onOutput: (stream, text) => {
        seen.push(`${stream}:${text}`);
      },
    });
    expect(seen.join('')).toContain('stdout:one\n');
    expect(seen.join('')).toContain('stderr:two\n');
    expect(r).toMatchObject({ exitCode: null, signal: 'SIGTERM', timedOut: false });
    await expect(ws.exec!.run({ command: 'true', cwd: 'missing' })).rejects.toMatchObject({
      code: 'WORKSPACE_NOT_FOUND',
    });
  });

  it('a cancelled command and close() settle in a script with nothing else to keep it running', async () => {
    // A bare script: nothing but the command holds the event loop. Node exits with code 13 when a
    // top-level await can never settle, which is what a kill round's unreferenced pause caused.
    const dist = join(import.meta.dirname, '..', '..', 'dist', 'index.js');
    const child = `
      const { LocalWorkspace } = await import(${JSON.stringify(dist)});
      const ws = new LocalWorkspace({ root: ${JSON.stringify(tmp.dir)} });
      const ac = new AbortController();
      const first = ws.exec.run({ command: 'sleep 30', signal: ac.signal }).catch((e) => e.code);
      await new Promise((r) => setTimeout(r, 200));
      ac.abort();
      console.log('aborted', await first);
      const second = ws.exec.run({ command: "trap '' TERM INT; sleep 30" }).catch((e) => e.code);
      await new Promise((r) => setTimeout(r, 200));
      await ws.close();
      console.log('closed', await second);
    `;
    const p = spawn(process.execPath, ['--input-type=module', '-e', child], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => p.once('exit', resolve));
    expect(out).toBe('aborted CANCELLED\nclosed CANCELLED\n');
    expect(code).toBe(0);
  }, 20_000);

  it('refuses a command too long for one command line, or holding a NUL byte, before starting anything', async () => {
    await expect(ws.exec!.run({ command: `echo ${'é'.repeat(70_000)}` })).rejects.toMatchObject({
      code: 'WORKSPACE_PROCESS',
      message: expect.stringMatching(/not run: it is 140005 bytes \(UTF-8\), and a command line takes at most 131071/),
    });
    await expect(ws.exec!.run({ command: 'echo a\u0000b' })).rejects.toMatchObject({
      code: 'WORKSPACE_PROCESS',
      message: expect.stringContaining('NUL byte'),
    });
    expect((await ws.exec!.run({ command: `: ${'a'.repeat(131_069)}` })).exitCode).toBe(0);
  });
});
