// The local exec service with node's child_process directly: environment, input on stdin, a
// command that never reads its input, a working directory that is not there, a missing shell
// feature, and output streamed while the command runs.
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
});
