// A command given files to hide (`WorkspaceExecRequest.hide`, set by the kernel from path deny
// rules) runs in namespaces of its own: an unreadable file or folder is out of reach however the
// command opens it, an unwritable one can be read but not changed, no `/proc/<pid>/root` of a
// process outside leads back to them, and processes are still tracked and reported. Where the
// files cannot be hidden, the command is refused and nothing runs.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecHiding, WorkspaceExecRequest } from '@a3s-code/core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/harness.js';
import { killStrays, pidsWith } from '../test-support/strays.js';
import { LocalWorkspace } from './local-workspace.js';
import { PROC_AVAILABLE } from './proc-scan.js';
import { reaperCommand } from './reaper.js';

const tmp = tempDir();
const ws = new LocalWorkspace({ root: tmp.dir });
const exec = ws.exec as NonNullable<typeof ws.exec>;
const at = (p: string) => join(tmp.dir, p);
const CAN_HIDE =
  PROC_AVAILABLE && reaperCommand('/bin/sh', [], {}, true, { unreadable: ['/x'], unwritable: [] }) !== undefined;

writeFileSync(at('.env'), 'TOKEN=hunter2\n');
mkdirSync(at('secret'));
writeFileSync(at('secret/k.ts'), 'KEY=s3cr3t\n');
mkdirSync(at('locked'));
writeFileSync(at('locked/a.txt'), 'kept\n');
writeFileSync(at('public.txt'), 'public\n');

const HIDE: ExecHiding = { unreadable: [at('.env'), at('secret')], unwritable: [at('locked')] };

async function run(command: string, extra: Partial<WorkspaceExecRequest> = {}) {
  const r = await exec.run({ command, hide: HIDE, ...extra });
  return { code: r.exitCode, out: r.stdout.head + r.stdout.tail, err: r.stderr.head + r.stderr.tail, r };
}

afterEach(async () => {
  await ws.close();
  expect(killStrays(['417.31', '418.37'])).toEqual([]);
});
afterAll(() => tmp.cleanup());

describe.skipIf(!CAN_HIDE)('a command with files to hide', () => {
  it('cannot read an unreadable file by any route: its path, a link, an interpreter, a search, /proc', async () => {
    const r = await run(
      [
        'cat .env',
        'ln -s .env alias && cat alias',
        `python3 -c "print(open('.env').read())"`,
        'grep -r hunter2 --include=.env --include=alias .',
        `cat /proc/${process.pid}/root${at('.env')}`,
        `cat /proc/*/root${at('.env')}`,
        `cat /proc/*/cwd/.env`,
        'cp .env copy.txt; cat copy.txt',
      ].join('; '),
    );
    expect(r.out + r.err).not.toContain('hunter2');
    expect(r.err).toContain('.env: Permission denied');
    expect(readFileSync(at('.env'), 'utf8')).toBe('TOKEN=hunter2\n');
  });

  it('sees an unreadable folder empty and can neither read nor write in it; other files as usual', async () => {
    const r = await run(
      'ls -A secret | wc -l; cat secret/k.ts; echo x > secret/new; rm -rf secret; cat public.txt; echo more >> public.txt',
    );
    expect(r.out).toContain('0\npublic\n');
    expect(r.out + r.err).not.toContain('s3cr3t');
    expect(r.err).toMatch(/secret\/new: Read-only file system/);
    expect(readFileSync(at('secret/k.ts'), 'utf8')).toBe('KEY=s3cr3t\n');
    expect(existsSync(at('secret/new'))).toBe(false);
    expect(readFileSync(at('public.txt'), 'utf8')).toBe('public\nmore\n');
  });

  it('reads an unwritable folder but cannot change, add, move or remove anything in it', async () => {
    const r = await run(
      'cat locked/a.txt; echo no > locked/a.txt; touch locked/b; mv locked/a.txt x; rm -f locked/a.txt; rm -rf locked; chmod 000 locked/a.txt',
    );
    expect(r.out).toBe('kept\n');
    expect(r.err.match(/Read-only file system/g)?.length ?? 0).toBeGreaterThanOrEqual(4);
    expect(readFileSync(at('locked/a.txt'), 'utf8')).toBe('kept\n');
    expect(existsSync(at('locked/b'))).toBe(false);
  });

  it('cannot unmount, remount or read past the hiding, even as root; nor read a disk device', async () => {
    const disk = readdirSync('/dev')
      .map((n) => `/dev/${n}`)
      .find((p) => {
        try {
          return lstatSync(p).isBlockDevice();
        } catch {
          return false;
        }
      });
    const r = await run(
      [
        'umount .env; umount -l .env; umount secret; umount -l locked; mount -o remount,rw locked',
        'cat .env secret/k.ts; echo no > locked/a.txt',
        ...(disk === undefined ? [] : [`head -c 65536 ${disk} | wc -c`]),
      ].join('; '),
    );
    expect(r.out + r.err).not.toMatch(/hunter2|s3cr3t/);
    expect(r.err).toContain('.env: Permission denied');
    expect(readFileSync(at('locked/a.txt'), 'utf8')).toBe('kept\n');
    if (disk !== undefined) expect(r.out.trim()).toBe('0');
  });

  it('sees only its own processes; the exit status and signals are as without hiding', async () => {
    const r = await run('ps -e -o pid= | wc -l; exit 7');
    expect(Number(r.out.trim())).toBeLessThan(8);
    expect(r.code).toBe(7);
    const killed = await run('kill -TERM $$');
    expect(killed.r.signal).toBe('SIGTERM');
  });

  it('BND-06: a background process is reported by its own pid and killed by close(); the timeout kills all', async () => {
    const r = await run('sleep 417.31 >/dev/null 2>&1 & echo started');
    expect(r.out).toBe('started\n');
    expect(r.r.backgroundProcesses?.map((p) => p.command)).toEqual(['sleep 417.31']);
    expect(pidsWith('sleep 417.31')).toEqual(r.r.backgroundProcesses?.map((p) => p.pid));
    await exec.close?.();
    expect(pidsWith('sleep 417.31')).toEqual([]);
    const t = await run('( (env -i setsid sleep 418.37 &) & ); sleep 10', { timeoutMs: 400 });
    expect(t.r.timedOut).toBe(true);
    expect(pidsWith('sleep 418.37')).toEqual([]);
  });

  it('is refused, with nothing run, when a file cannot be hidden', async () => {
    const r = exec.run({
      command: `touch ${at('ran')}`,
      hide: { unreadable: [at('no-such-file')], unwritable: [] },
    });
    await expect(r).rejects.toMatchObject({
      code: 'WORKSPACE_PROCESS',
      message: expect.stringMatching(/the command was not run: .*no-such-file.*cannot hide/),
    });
    expect(existsSync(at('ran'))).toBe(false);
  });

  it('hides as well for a user who is not root (in a user namespace of its own)', async ({ skip }) => {
    if (process.getuid?.() !== 0) return; // the suite itself then runs this path
    const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
    if (setpriv === undefined) skip('setpriv is not installed');
    const dir = tempDir();
    chmodSync(dir.dir, 0o777);
    writeFileSync(join(dir.dir, '.env'), 'TOKEN=hunter2\n', { mode: 0o644 });
    writeFileSync(join(dir.dir, 'ok.txt'), 'fine\n', { mode: 0o644 });
    // The reaper itself, as the user `nobody` (a clone of the repository may be closed to it).
    const hideEnv = { unreadable: [join(dir.dir, '.env')], unwritable: [] };
    const reaper = reaperCommand(
      '/bin/sh',
      ['-c', 'id -u; cat .env; cat ok.txt'],
      { PATH: '/usr/bin:/bin' },
      true,
      hideEnv,
    );
    if (reaper === undefined) throw new Error('no reaper');
    const r = spawnSync(
      setpriv!,
      ['--reuid=65534', '--regid=65534', '--clear-groups', reaper.command, ...reaper.args],
      {
        cwd: dir.dir,
        env: reaper.env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      },
    );
    expect(r.stdout).toBe('65534\nfine\n');
    expect(r.stderr).toContain('.env: Permission denied');
    expect(r.output[3]).toBe('0\n');
    dir.cleanup();
  });
});

describe.skipIf(CAN_HIDE)('where files cannot be hidden', () => {
  it('a command given files to hide is refused, never run unheld', async () => {
    await expect(exec.run({ command: `touch ${at('ran')}`, hide: HIDE })).rejects.toMatchObject({
      code: 'WORKSPACE_PROCESS',
    });
    expect(existsSync(at('ran'))).toBe(false);
  });
});
