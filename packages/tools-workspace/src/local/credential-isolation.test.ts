// While the host's initial environment holds a model credential (withheld from commands), a command
// cannot read it back from the host's processes: their `/proc/<pid>/environ` (and memory) is out of
// its sight, because it runs in the process and mount namespaces the workspace's commands share.
// Here that is forced (`isolateCommands: true`); the `auto` decision is tested on its own, and end
// to end by the CLI test `key-from-proc.test.ts` (the real CLI started with a key).
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { holdCredentials, holdsCredentials, releaseCredentials } from '@a3s-code/core';
import { tempDir } from '../test-support/harness.js';
import { killStrays, pidsWith } from '../test-support/strays.js';
import {
  apartNote,
  initialEnvironment,
  isolateForCredentials,
  isolationWorks,
  NOTHING_HIDDEN,
  withholdsCredentials,
} from './credential-isolation.js';
import { LocalWorkspace } from './local-workspace.js';

const tmp = tempDir();
const KEY = 'OPENAI_API_KEY';
const before = process.env[KEY];
const workspaces: LocalWorkspace[] = [];

function execOf(passEnv: readonly string[] = [], isolateCommands: boolean | 'auto' = true) {
  const ws = new LocalWorkspace({ root: tmp.dir, ...(passEnv.length > 0 ? { passEnv } : {}), isolateCommands });
  workspaces.push(ws);
  return ws.exec as NonNullable<typeof ws.exec>;
}

async function run(command: string, passEnv: readonly string[] = []) {
  const r = await execOf(passEnv).run({ command });
  return { code: r.exitCode, out: r.stdout.head + r.stdout.tail, r };
}

/** What a command sees of this (the host) process. */
const SEES_HOST = `test -e /proc/${process.pid}/environ && echo sees-host || echo apart`;

afterEach(async () => {
  if (before === undefined) delete process.env[KEY];
  else process.env[KEY] = before;
  for (const ws of workspaces.splice(0)) await ws.close();
  expect(killStrays(['419.23', '419.41', '419.53'])).toEqual([]);
});
afterAll(() => tmp.cleanup());

describe('withholdsCredentials', () => {
  it('is true only for a variable the commands go without, with a value', () => {
    expect(withholdsCredentials({ OPENAI_API_KEY: 'sk-1', PATH: '/bin' }, { PATH: '/bin' })).toBe(true);
    expect(withholdsCredentials({ OPENAI_API_KEY: '', PATH: '/bin' }, { PATH: '/bin' })).toBe(false);
    expect(withholdsCredentials({ OPENAI_API_KEY: 'sk-1' }, { OPENAI_API_KEY: 'sk-1' })).toBe(false);
  });
});

describe('apartNote', () => {
  it('speaks only of a failed privileged command of a user who is not root', () => {
    expect(apartNote('sudo apt-get install -y jq', { code: 1 }, 1000)).toMatch(/sudo and su cannot gain privileges/);
    expect(apartNote('make && sudo make install', { code: 1 }, 1000)).toMatch(/isolateCommands: false/);
    expect(apartNote('sudo true', { code: 0 }, 1000)).toBeUndefined();
    expect(apartNote('sudo apt-get install -y jq', { code: 1 }, 0)).toBeUndefined();
    expect(apartNote('echo pseudo', { code: 1 }, 1000)).toBeUndefined();
  });
});

describe.skipIf(!isolationWorks())('a command run apart from the host', () => {
  it('cannot see the host process, so not its environment either; exit codes are its own', async () => {
    const r = await run(
      `${SEES_HOST}; for p in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$p"; done 2>/dev/null | grep -c '^${KEY}=' ; exit 3`,
    );
    expect(r.out).toBe('apart\n0\n');
    expect(r.code).toBe(3);
  });

  it("auto follows the host's initial environment (what /proc shows), not later changes to process.env", async () => {
    const initial = readFileSync('/proc/self/environ', 'latin1').split('\0');
    const held = initial.some((kv) => /^(OPENAI|ANTHROPIC|DEEPSEEK|OPENROUTER|GROQ)_API_KEY=./.test(kv));
    expect(initialEnvironment()?.PATH).toBe(process.env.PATH);
    process.env[KEY] = 'sk-isolation-test-4471';
    expect(isolateForCredentials('auto', [])).toBe(held);
    expect((await execOf([], 'auto').run({ command: SEES_HOST })).stdout.head).toBe(held ? 'apart\n' : 'sees-host\n');
    expect(
      isolateForCredentials('auto', [
        KEY,
        'ANTHROPIC_API_KEY',
        'OPENROUTER_API_KEY',
        'GROQ_API_KEY',
        'DEEPSEEK_API_KEY',
      ]),
    ).toBe(false);
    expect(isolateForCredentials(false, [])).toBe(false);
    expect(isolateForCredentials(true, [])).toBe(true);
  });

  it('auto isolates while a provider client holds a key given in code (memory the same user could read), and not once it is released', async () => {
    const key = 'tok-held-in-memory-5521';
    holdCredentials(key);
    try {
      expect(holdsCredentials()).toBe(true);
      expect((await execOf([], 'auto').run({ command: SEES_HOST })).stdout.head).toBe('apart\n');
      // A key the host hands to commands anyway (passEnv) is no reason to keep them apart.
      process.env.A3S_TEST_PASSED_KEY = key;
      expect(holdsCredentials(['A3S_TEST_PASSED_KEY'])).toBe(false);
    } finally {
      delete process.env.A3S_TEST_PASSED_KEY;
      releaseCredentials(key);
    }
    expect(holdsCredentials()).toBe(false);
    expect(isolateForCredentials('auto', [])).toBe(
      readFileSync('/proc/self/environ', 'latin1')
        .split('\0')
        .some((kv) => /^(OPENAI|ANTHROPIC|DEEPSEEK|OPENROUTER|GROQ)_API_KEY=./.test(kv)),
    );
  });

  it('isolateCommands: false lets commands see the host as before', async () => {
    expect(execOf([], false).hostPid?.(process.pid)).toBe(process.pid);
    const exec = execOf([], false);
    expect((await exec.run({ command: SEES_HOST })).stdout.head).toBe('sees-host\n');
    const kernel = { command: 'python3', args: ['-c', 'pass'] };
    expect(exec.hiding?.(kernel, NOTHING_HIDDEN)).toEqual(kernel);
    expect(() => new LocalWorkspace({ root: tmp.dir, isolateCommands: 'no' as unknown as boolean })).toThrow(
      /isolateCommands: must be 'auto', true or false, got "no"/,
    );
  });

  it("commands share one namespace: a later command sees an earlier one's server and stops it by the pid it was told", async () => {
    const exec = execOf();
    const started = await exec.run({ command: 'sleep 419.41 >/dev/null 2>&1 & echo started' });
    const [bg] = started.backgroundProcesses ?? [];
    expect(bg?.shellPid).toBeGreaterThan(1);
    expect(bg?.shellPid).not.toBe(bg?.pid);
    const seen = await exec.run({ command: `ps -e -o pid=,args= | grep -c '^ *${bg?.shellPid} sleep 419.41'` });
    expect(seen.stdout.head).toBe('1\n');
    expect(exec.hostPid?.(bg!.shellPid!)).toBe(bg?.pid);
    expect(exec.hostPid?.(process.pid)).toBeUndefined();
    const stopped = await exec.run({ command: `kill ${bg?.shellPid} && echo stopped` });
    expect(stopped.stdout.head).toBe('stopped\n');
    await new Promise((r) => setTimeout(r, 200));
    expect(pidsWith('sleep 419.41')).toEqual([]);
  });

  it('a command keeps its working folder in the shared namespace; one the host cannot find still ends with the workspace', async () => {
    mkdirSync(join(tmp.dir, 'sub'), { recursive: true });
    const exec = execOf();
    expect((await exec.run({ command: 'pwd', cwd: 'sub' })).stdout.head).toBe(`${join(tmp.dir, 'sub')}\n`);
    // Out of its group and session, with a cleared environment, in a subshell that is gone.
    await exec.run({ command: '( (env -i setsid sleep 419.53 >/dev/null 2>&1 &) & ); echo left' });
    await exec.close?.();
    await new Promise((r) => setTimeout(r, 300));
    expect(pidsWith('sleep 419.53')).toEqual([]);
  });

  it('as root: no user namespace (su and apt keep working) and none of the capabilities that would lead out', async () => {
    if (process.getuid?.() !== 0) return; // the user namespace path is the one tested above, then
    const exec = execOf();
    const r = await exec.run({
      command: [
        'su nobody -s /bin/sh -c "id -u" 2>/dev/null || echo no-su',
        'umount /proc 2>/dev/null && echo unmounted || echo kept',
        'mount -t proc proc /mnt 2>/dev/null && echo mounted || echo refused',
        "b=$(awk '/^CapBnd/ { print $2 }' /proc/self/status); [ $(( (0x$b >> 21) & 1 )) -eq 0 ] && echo no-admin || echo admin",
        SEES_HOST,
      ].join('; '),
    });
    const [su, ...rest] = r.stdout.head.split('\n');
    expect(['65534', 'no-su']).toContain(su);
    expect(rest.join('\n')).toBe('kept\nrefused\nno-admin\napart\n');
  });

  it('when the shared namespaces go (their holder is killed), the next command makes them again', async () => {
    const exec = execOf();
    expect((await exec.run({ command: 'echo $$' })).exitCode).toBe(0);
    const holders = readdirSync('/proc').filter((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'latin1');
        return (
          stat.includes('(a3s-namespace)') &&
          Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid
        );
      } catch {
        return false;
      }
    });
    expect(holders.length).toBeGreaterThan(0);
    for (const pid of holders) process.kill(Number(pid), 'SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    const again = await exec.run({ command: `${SEES_HOST}; echo $$` });
    expect(again.exitCode).toBe(0);
    expect(again.stdout.head).toMatch(/^apart\n\d+\n$/);
  });

  it('BND-06: a background process is still reported by its pid and ended with the workspace', async () => {
    const exec = execOf();
    const r = await exec.run({ command: 'sleep 419.23 >/dev/null 2>&1 & echo started' });
    expect(r.stdout.head).toBe('started\n');
    expect(r.backgroundProcesses?.map((p) => p.command)).toEqual(['sleep 419.23']);
    expect(pidsWith('sleep 419.23')).toEqual(r.backgroundProcesses?.map((p) => p.pid));
    await exec.close?.();
    expect(pidsWith('sleep 419.23')).toEqual([]);
  });

  it('a process a tool starts itself (a kernel) is started apart too', () => {
    const kernel = { command: 'python3', args: ['-c', 'pass'] };
    const apart = execOf().hiding?.(kernel, NOTHING_HIDDEN);
    expect(apart?.command).not.toBe('python3');
    expect(apart?.args.slice(-3)).toEqual(['python3', '-c', 'pass']);
  });
});
