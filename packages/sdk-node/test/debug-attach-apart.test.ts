// While commands run apart from the host (as they do while its initial environment holds a model
// key), the pids the model knows are those of the commands' own process namespace. `debug attach`
// by pid takes such a pid: a real C program started by `bash`, attached by lldb-dap.
import { spawnSync } from 'node:child_process';
import { readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { listAdapters } from '@a3s-code/tools-resource/debug';
import { LocalWorkspace } from '@a3s-code/tools-workspace';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, type Session } from '../src/index.js';
import { workspace } from './read-deny-kit.js';

// A counter bumped in `main` (line 5) every 20 ms until the process is stopped.
const C_LOOP = `#include <unistd.h>

int main(void) {
  for (volatile int beats = 0;;) {
    beats++;
    usleep(20000);
  }
}
`;

function lldbMissing(): string | undefined {
  if (process.platform !== 'linux') return 'process namespaces are Linux only';
  if (spawnSync('cc', ['--version'], { stdio: 'ignore' }).status !== 0) return "'cc' is not on PATH";
  const dir = workspace();
  writeFileSync(join(dir, 'CMakeLists.txt'), '');
  return listAdapters(dir).find((a) => a.id === 'lldb')?.reason;
}
const MISSING = lldbMissing();

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function apartSession(): Promise<{ dir: string; session: Session }> {
  const dir = workspace();
  writeFileSync(join(dir, 'CMakeLists.txt'), '');
  writeFileSync(join(dir, 'loop.c'), C_LOOP);
  expect(spawnSync('cc', ['-g', '-O0', '-o', join(dir, 'loop'), join(dir, 'loop.c')]).status).toBe(0);
  const agent = await Agent.create({ model: new ScriptedLlmClient([{ text: 'done' }]) });
  session = await agent.session(dir, {
    workspace: new LocalWorkspace({ root: dir, isolateCommands: true }),
    governance: { yolo: true },
  });
  return { dir, session };
}

describe.skipIf(MISSING !== undefined)(
  `debug attach by the pid commands know${MISSING === undefined ? '' : ` (skipped: ${MISSING})`}`,
  () => {
    it('DBG-08: attaches to a program bash left running, named by the pid bash printed (not the host pid)', async () => {
      const { dir, session: s } = await apartSession();
      const started = await s.tool('bash', { command: './loop >/dev/null 2>&1 & echo $!' });
      const pid = Number(started.output.split('\n')[0]);
      const meta = (r: { metadataJson?: string }) => JSON.parse(r.metadataJson ?? '{}') as Record<string, unknown>;
      const host = (meta(started).background_processes as { pid: number; shell_pid?: number }[])[0];
      expect(host?.shell_pid).toBe(pid);
      expect(host?.pid).not.toBe(pid);
      expect(readlinkSync(`/proc/${host!.pid}/exe`)).toBe(join(dir, 'loop'));
      await s.tool('debug', { op: 'breakpoints', file: 'loop.c', lines: [5] });
      const r = await s.tool('debug', { op: 'attach', adapter: 'lldb', pid, wait_ms: 30_000 });
      expect(r.output).toMatch(
        new RegExp(
          `^attached with lldb to process ${pid} \\(host pid ${host!.pid}\\): stopped \\(breakpoint\\).* at main \\(.*loop\\.c:5\\)`,
        ),
      );
      expect(meta(r)).toMatchObject({ pid, host_pid: host!.pid });
      expect((await s.tool('debug', { op: 'evaluate', expression: 'beats + 1000' })).output).toMatch(/^\d{4,}$/);
      expect(meta(await s.tool('debug', { op: 'terminate' })).ended).toBe(true);
    }, 90_000);

    it('DBG-08: a pid none of the commands has is refused by name, before any adapter starts', async () => {
      const { session: s } = await apartSession();
      await s.tool('bash', { command: 'true' });
      // The host process itself works in no namespace of the commands: refused even though it exists.
      const r = await s.tool('debug', { op: 'attach', adapter: 'lldb', pid: process.pid });
      expect(r.exitCode).not.toBe(0);
      expect(r.output).toContain(
        `DEBUG_TARGET: there is no process ${process.pid} among the workspace's commands' processes`,
      );
    }, 60_000);
  },
);
