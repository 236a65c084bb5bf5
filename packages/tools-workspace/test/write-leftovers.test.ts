// A process SIGKILLed while it writes a file (after the temporary file was made, before its rename)
// leaves `.<name>.a3s-tmp-...` beside the file. The next write of that file in another process
// removes it, and only what has exactly that shape, for that file, of a writer no longer running.
// Real files, a real LocalWorkspace (built), and a real second process killed mid-write.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../src/index.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-leftovers-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const DIST = join(import.meta.dirname, '..', 'dist', 'index.js');

/** Writes 96 MiB to `a.txt` through the built LocalWorkspace, once its temporary file exists it is killed. */
const WRITER = `const { LocalWorkspace } = await import(process.argv[1]);
const ws = new LocalWorkspace({ root: process.argv[2] });
process.stdout.write('go\\n');
await ws.fs.writeFile('a.txt', Buffer.alloc(96 * 1024 * 1024, 120));`;

const leftovers = (name: string) => readdirSync(dir).filter((e) => e.startsWith(`.${name}.a3s-tmp-`));

async function killMidWrite(): Promise<string> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', WRITER, DIST, dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  // Polled without yielding: the kill lands while the temporary file exists, before the rename.
  const deadline = Date.now() + 20_000;
  let found: string[] = [];
  while (found.length === 0 && child.exitCode === null && Date.now() < deadline) found = leftovers('a.txt');
  child.kill('SIGKILL');
  await exited;
  expect(child.signalCode).toBe('SIGKILL');
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('temporary files a killed writer left', () => {
  it("the next write of the file removes the dead writer's temporary file, and nothing that is not one", async () => {
    const left = await killMidWrite();
    expect(left).toMatch(/^\.a\.txt\.a3s-tmp-\d+-[0-9a-f]{12}$/);
    expect(leftovers('a.txt')).toEqual([left]);

    // What stays: a running writer's, another file's, other shapes, a name of the older shape still young.
    const running = spawn('sleep', ['30'], { stdio: 'ignore' });
    const keep = [
      `.a.txt.a3s-tmp-${running.pid}-0123456789ab`,
      '.b.txt.a3s-tmp-1-0123456789ab',
      '.a.txt.a3s-tmp-1-0123456789abc',
      '.a.txt.a3s-tmp-1-0123456789AB',
      'a.txt.a3s-tmp-1-0123456789ab',
      '.a.txt.a3s-tmp-0123456789ab',
    ];
    for (const name of keep) writeFileSync(join(dir, name), 'not a leftover of a dead writer');
    // An older-shape name a minute old goes (its writer cannot be told, its age can).
    const old = '.a.txt.a3s-tmp-fedcba987654';
    writeFileSync(join(dir, old), 'old');
    utimesSync(join(dir, old), new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));

    const ws = new LocalWorkspace({ root: dir });
    await ws.fs.writeFile('a.txt', 'alpha\n').finally(() => running.kill('SIGKILL'));
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(readdirSync(dir).sort()).toEqual(['a.txt', ...keep].sort());
  }, 60_000);
});
