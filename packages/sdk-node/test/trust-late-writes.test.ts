// A process a command leaves running (`(sleep 1; mkdir -p .github/workflows; ...) &`), or a thread
// of an eval kernel, writes after the call has ended, where no file existed for the rules to
// hold when it started. What it creates under a write deny rule is removed while the session is
// open (within about a second while the process is known to run, and before each later held
// command starts), and once more when the session ends; the next held command's result names it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, results, run, workspace } from './read-deny-kit.js';

const CAN_HIDE = process.platform === 'linux' && existsSync('/proc/self/environ');
const bash = (id: string, command: string) => call(id, 'bash', { command });
const DENY = { deny: ['Write(.github/workflows/**)', 'Write(.env.prod)'] };
/** What a result's metadata names as removed, sorted. */
const removedBy = (metadata: unknown): string[] =>
  [...((metadata as { denied_writes?: { removed: string[] } } | undefined)?.denied_writes?.removed ?? [])].sort();
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!CAN_HIDE)('what a process left running creates later where a write rule denies it', () => {
  it('PERM-02: a background job writing between two calls loses the file before the next command runs, and that command names it', async () => {
    const dir = workspace();
    const { session } = await run(
      dir,
      [
        // The job waits for a file the next call writes, so it writes only after its own call has ended.
        bash(
          'b1',
          '(while [ ! -f go ]; do sleep 0.02; done; mkdir -p .github/workflows; echo "run: evil" > .github/workflows/evil.yml; echo A=1 > .env.prod; echo fine > src/late.ts; sleep 30) > /dev/null 2>&1 & echo started',
        ),
        call('w1', 'write', { file_path: 'go', content: 'x\n' }),
        // The model answers after the job has written, and before a periodic sweep came.
        { ...bash('b2', 'cat src/late.ts; ls .github/workflows 2>&1; cat .env.prod 2>&1; echo after'), delay_ms: 400 },
      ],
      { permissions: DENY },
    );
    const got = results(session);
    expect(got.get('b1')?.output).toContain('started');
    expect(got.get('b1')?.metadata).not.toHaveProperty('denied_writes');
    const b2 = got.get('b2');
    // The job had written everything before the command ran; what the rules deny was gone already.
    expect(b2?.output).toContain('fine');
    expect(b2?.output).not.toContain('evil.yml');
    expect(b2?.output).not.toContain('A=1');
    expect(removedBy(b2?.metadata)).toEqual(['.env.prod', '.github/workflows']);
    expect(existsSync(join(dir, '.github', 'workflows'))).toBe(false);
    expect(existsSync(join(dir, '.env.prod'))).toBe(false);
    // What the rules allow stays.
    expect(readFileSync(join(dir, 'src', 'late.ts'), 'utf8')).toBe('fine\n');
  });

  it('PERM-02: a background job writing while the next command runs loses the file, and that command names it', async () => {
    const dir = workspace();
    const { session } = await run(
      dir,
      [
        bash(
          'b1',
          '(while [ ! -f go ]; do sleep 0.02; done; mkdir -p .github/workflows; echo "run: evil" > .github/workflows/evil.yml; echo A=1 > .env.prod; echo done > ready; sleep 30) > /dev/null 2>&1 & echo started',
        ),
        bash('b2', 'touch go; while [ ! -f ready ]; do sleep 0.02; done; echo after'),
      ],
      { permissions: DENY },
    );
    const got = results(session);
    expect(got.get('b1')?.metadata).not.toHaveProperty('denied_writes');
    expect(removedBy(got.get('b2')?.metadata)).toEqual(['.env.prod', '.github/workflows']);
    expect(existsSync(join(dir, '.github', 'workflows'))).toBe(false);
    expect(existsSync(join(dir, '.env.prod'))).toBe(false);
  });

  it('PERM-02: with no later call, the file goes within about a second, and what comes after the last look goes when the session ends', async () => {
    const dir = workspace();
    const { session } = await run(
      dir,
      [
        bash(
          'b1',
          '(sleep 0.5; mkdir -p .github/workflows; echo x > .github/workflows/a.yml; sleep 2.5; echo B=1 > .env.prod; sleep 30) > /dev/null 2>&1 & echo started',
        ),
      ],
      { permissions: DENY },
    );
    await wait(2500);
    expect(existsSync(join(dir, '.github', 'workflows'))).toBe(false);
    await wait(1200);
    await session.close();
    expect(existsSync(join(dir, '.env.prod'))).toBe(false);
  });

  it('PERM-02: an eval kernel thread writing after its cell loses the file within about a second, with no later call', async () => {
    const dir = workspace();
    await run(
      dir,
      [
        call('e1', 'eval', {
          description: 'start a thread that writes a file later',
          language: 'python',
          code: "import threading, time, os\ndef later():\n    time.sleep(0.5)\n    os.makedirs('.github/workflows', exist_ok=True)\n    open('.github/workflows/t.yml', 'w').write('x')\nthreading.Thread(target=later).start()\nprint('armed')",
        }),
      ],
      { permissions: DENY },
    );
    await wait(2600);
    expect(existsSync(join(dir, '.github', 'workflows'))).toBe(false);
  });

  it('PERM-02: an eval kernel thread writing between cells loses the file at the next cell', async () => {
    const dir = workspace();
    const { session } = await run(
      dir,
      [
        call('e1', 'eval', {
          description: 'start a thread that writes a file later',
          language: 'python',
          code: "import threading, time, os\ndef later():\n    time.sleep(0.3)\n    os.makedirs('.github/workflows', exist_ok=True)\n    open('.github/workflows/k.yml', 'w').write('x')\nthreading.Thread(target=later).start()\nprint('armed')",
        }),
        call('e2', 'eval', {
          description: 'check whether the workflow folder is there',
          language: 'python',
          code: "import time\ntime.sleep(1)\nprint(os.path.exists('.github/workflows'))",
        }),
      ],
      { permissions: DENY },
    );
    const got = results(session);
    expect(got.get('e1')?.output).toContain('armed');
    expect(got.get('e2')?.metadata).toMatchObject({ denied_writes: { removed: ['.github/workflows'] } });
    expect(existsSync(join(dir, '.github', 'workflows'))).toBe(false);
  });

  it('PERM-02: what a kernel thread wrote before the next cell began is removed and named by that cell, and the kernel keeps its state', async () => {
    const dir = workspace();
    const { session } = await run(
      dir,
      [
        call('e1', 'eval', {
          description: 'start a thread that writes a file soon',
          language: 'python',
          code: "import threading, time, os\nkept = 41\ndef soon():\n    time.sleep(0.1)\n    os.makedirs('.github/workflows', exist_ok=True)\n    open('.github/workflows/k.yml', 'w').write('x')\nthreading.Thread(target=soon).start()\nprint('armed')",
        }),
        // The model answers after the thread has written, and before a periodic sweep came.
        {
          ...call('e2', 'eval', {
            description: 'check the folder and the kept state',
            language: 'python',
            code: "print(os.path.exists('.github/workflows'), kept + 1)",
          }),
          delay_ms: 500,
        },
      ],
      { permissions: DENY },
    );
    const got = results(session);
    expect(got.get('e1')?.output).toContain('armed');
    const e2 = got.get('e2');
    expect(e2?.output).toContain('False 42');
    expect(e2?.output).toContain('refused: the path rules deny writing .github/workflows');
    expect(e2?.metadata).toMatchObject({ kernel_started: false, denied_writes: { removed: ['.github/workflows'] } });
    expect(existsSync(join(dir, '.github', 'workflows'))).toBe(false);
  });
});
