// Path deny rules hold for the commands the model runs, not only for the file tools: `bash` and
// `verify` commands, `eval` kernels and programs launched under `debug` run with the files the rules cover out of reach, however the command names
// or opens them (a path, a link, an interpreter, a recursive search, another process's
// /proc/<pid>/root). A denied read fails, a denied write fails, and the secret reaches no tool
// result, event or fact log. Without path rules, commands see every file as before.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  call,
  debugProject,
  DEBUGPY,
  DENY,
  expectNoLeak,
  NESTED,
  results,
  run,
  SECRET,
  workspace,
} from './read-deny-kit.js';

const CAN_HIDE = process.platform === 'linux' && existsSync('/proc/self/environ');
const bash = (id: string, command: string) => call(id, 'bash', { command });

describe.skipIf(!CAN_HIDE)('path deny rules hold for commands', () => {
  it('PERM-02: Read(.env) and Read(secret/**) keep the secrets from every way a command can read them', async () => {
    const dir = workspace();
    const { session, events } = await run(
      dir,
      [
        bash('b1', 'cat .env; cat ./.env alias vault/k.ts secret/k.ts; base64 .env'),
        bash(
          'b2',
          `python3 -c "print(open('.env').read())"; node -e "console.log(require('fs').readFileSync('.env','utf8'))"`,
        ),
        bash('b3', 'grep -r "hunter2\\|s3cr3t" . --exclude-dir=.a3s; tar cf - .env secret 2>&1 | strings | head -20'),
        bash('b4', `cat /proc/*/root${dir}/.env /proc/*/cwd/.env /proc/*/root${dir}/secret/k.ts 2>&1 | head -5`),
        bash('b5', 'ln .env hard 2>&1; cp -r secret copy 2>&1; cat copy/k.ts 2>&1; cat "$(printf .e)nv"'),
        call('v1', 'verify', { subject: 'secrets', commands: [{ id: 'peek', command: 'cat .env secret/k.ts' }] }),
      ],
      { permissions: DENY },
    );
    const got = results(session);
    expect(got.size).toBe(6);
    expect(got.get('b1')?.output).toContain('.env: Permission denied');
    expect(got.get('b2')?.output).toContain('PermissionError');
    expectNoLeak(dir, session, events, [SECRET, NESTED]);
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe(`${SECRET}\n`);
  });

  it('PERM-02: Write(secret/**) keeps a command from changing, adding or removing anything there', async () => {
    const dir = workspace();
    const { session } = await run(
      dir,
      [
        bash(
          'b1',
          'echo pwned > secret/k.ts; echo new > secret/new.ts; rm -rf secret; mv secret/k.ts x; echo ok > src/ok.ts',
        ),
        bash('b2', 'cat secret/k.ts'),
      ],
      { permissions: { deny: ['Write(secret/**)'] } },
    );
    const got = results(session);
    expect(got.get('b1')?.output).toMatch(/Read-only file system/);
    expect(got.get('b2')?.output).toContain(NESTED);
    expect(readFileSync(join(dir, 'secret', 'k.ts'), 'utf8')).toContain(NESTED);
    expect(readFileSync(join(dir, 'src', 'ok.ts'), 'utf8')).toBe('ok\n');
  });

  it('PERM-02: an eval kernel (Python and JavaScript) is started with the same files kept from it', async () => {
    const dir = workspace();
    const cell = (id: string, language: string, code: string) =>
      call(id, 'eval', { code, language, description: 'look at the environment file here' });
    const { session, events } = await run(
      dir,
      [
        cell('e1', 'python', "print(open('.env').read())"),
        cell(
          'e2',
          'python',
          "import subprocess; print(subprocess.run(['cat', 'vault/k.ts'], capture_output=True, text=True))",
        ),
        cell('e3', 'javascript', "require('node:fs').readFileSync('.env', 'utf8')"),
        cell('e4', 'python', "print(open('src/public.ts').read())"),
      ],
      { permissions: DENY },
    );
    const got = results(session);
    expect(got.get('e1')?.output).toContain('PermissionError');
    expect(got.get('e3')?.output).toContain('EACCES');
    expect(got.get('e4')).toMatchObject({ ok: true, output: expect.stringContaining('SECRET_TOKEN_NAME') });
    expectNoLeak(dir, session, events, [SECRET, NESTED]);
  });

  it.skipIf(!DEBUGPY)(
    'PERM-02: a program launched under debug runs with the files kept from it; attach is refused',
    async () => {
      const dir = workspace();
      debugProject(
        dir,
        'peek.py',
        "try:\n    print(open('.env').read())\nexcept Exception as e:\n    print('refused', type(e).__name__)\n",
      );
      const { session, events } = await run(
        dir,
        [
          call('d1', 'debug', { op: 'launch', program: 'peek.py' }),
          call('d2', 'debug', { op: 'output' }),
          call('d3', 'debug', { op: 'terminate' }),
          call('d4', 'debug', { op: 'attach', adapter: 'debugpy', port: 5678 }),
        ],
        { permissions: DENY },
      );
      const got = results(session);
      expect(`${got.get('d1')?.output}${got.get('d2')?.output}`).toContain('refused PermissionError');
      expect(got.get('d4')).toMatchObject({
        ok: false,
        output: expect.stringContaining('attach is refused while the permission rules keep files'),
      });
      expectNoLeak(dir, session, events, [SECRET, NESTED]);
    },
  );

  it('PERM-02: without path rules a command reads every file, as before', async () => {
    const dir = workspace();
    const { session } = await run(dir, [bash('b1', 'cat .env')], { permissions: { deny: ['Bash(rm:*)'] } });
    expect(results(session).get('b1')?.output).toContain(SECRET);
  });

  it("SDK-01: a host-direct command is the host's own: path rules for the model do not apply to it", async () => {
    const dir = workspace();
    const { session } = await run(dir, [], { permissions: DENY });
    expect(await session.bash('cat .env')).toContain(SECRET);
  });
});
