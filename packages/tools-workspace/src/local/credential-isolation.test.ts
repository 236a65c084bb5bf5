// While the host's environment holds a model credential (withheld from commands), a command cannot
// read it back from the host's processes: their `/proc/<pid>/environ` (and memory) is out of its
// sight, because it runs in process and mount namespaces of its own. Without such a credential, or
// with it passed to commands on purpose, commands see the host's processes as before.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/harness.js';
import { killStrays, pidsWith } from '../test-support/strays.js';
import { apartNote, isolationWorks, NOTHING_HIDDEN, withholdsCredentials } from './credential-isolation.js';
import { LocalWorkspace } from './local-workspace.js';

const tmp = tempDir();
const KEY = 'OPENAI_API_KEY';
const before = process.env[KEY];
const workspaces: LocalWorkspace[] = [];

function execOf(passEnv: readonly string[] = [], isolateCommands = true) {
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
  expect(killStrays(['419.23'])).toEqual([]);
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

describe.skipIf(!isolationWorks())('a command while the host holds a model key', () => {
  it('cannot see the host process, so not its environment either; exit codes are its own', async () => {
    process.env[KEY] = 'sk-isolation-test-4471';
    const r = await run(
      `${SEES_HOST}; for p in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$p"; done 2>/dev/null | grep -c '^${KEY}=' ; exit 3`,
    );
    expect(r.out).toBe('apart\n0\n');
    expect(r.code).toBe(3);
  });

  it('sees the host as before when no key is held, or when the key is passed to commands on purpose', async () => {
    delete process.env[KEY];
    expect((await run(SEES_HOST)).out).toBe('sees-host\n');
    process.env[KEY] = 'sk-isolation-test-4471';
    expect((await run(`${SEES_HOST}; printenv ${KEY}`, [KEY])).out).toBe('sees-host\nsk-isolation-test-4471\n');
  });

  it('isolateCommands: false lets commands see the host as before, key or not', async () => {
    process.env[KEY] = 'sk-isolation-test-4471';
    const exec = execOf([], false);
    expect((await exec.run({ command: SEES_HOST })).stdout.head).toBe('sees-host\n');
    const kernel = { command: 'python3', args: ['-c', 'pass'] };
    expect(exec.hiding?.(kernel, NOTHING_HIDDEN)).toEqual(kernel);
    expect(() => new LocalWorkspace({ root: tmp.dir, isolateCommands: 'no' as unknown as boolean })).toThrow(
      /isolateCommands: must be true or false, got "no"/,
    );
  });

  it('BND-06: a background process is still reported by its pid and ended with the workspace', async () => {
    process.env[KEY] = 'sk-isolation-test-4471';
    const exec = execOf();
    const r = await exec.run({ command: 'sleep 419.23 >/dev/null 2>&1 & echo started' });
    expect(r.stdout.head).toBe('started\n');
    expect(r.backgroundProcesses?.map((p) => p.command)).toEqual(['sleep 419.23']);
    expect(pidsWith('sleep 419.23')).toEqual(r.backgroundProcesses?.map((p) => p.pid));
    await exec.close?.();
    expect(pidsWith('sleep 419.23')).toEqual([]);
  });

  it('a process a tool starts itself (a kernel) is started apart too, and only while a key is held', () => {
    const exec = execOf();
    const kernel = { command: 'python3', args: ['-c', 'pass'] };
    process.env[KEY] = 'sk-isolation-test-4471';
    const apart = exec.hiding?.(kernel, NOTHING_HIDDEN);
    expect(apart?.command).not.toBe('python3');
    expect(apart?.args.slice(-3)).toEqual(['python3', '-c', 'pass']);
    delete process.env[KEY];
    expect(exec.hiding?.(kernel, NOTHING_HIDDEN)).toEqual(kernel);
  });
});
