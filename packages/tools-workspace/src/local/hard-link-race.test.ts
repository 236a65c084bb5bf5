/**
 * The in-place rewrite of a hard-linked file under attack: a child process keeps replacing the
 * written name with a symbolic link to a file outside the workspace and back with a hard link to
 * a file inside, as fast as it can rename, while `write` and `edit` loop on that name. The
 * outside file must never change; every call either writes inside or is refused. Real processes.
 */
import { spawn } from 'node:child_process';
import { linkSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { A3sError } from '@a3s-code/core';
import { call, tempDir } from '../test-support/harness.js';
import { editTool } from '../tools/edit/edit-tool.js';
import { writeTool } from '../tools/write/write-tool.js';
import { LocalWorkspace } from './local-workspace.js';

const tmp = tempDir();
const outsideDir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-outside-')));
afterAll(() => {
  tmp.cleanup();
  rmSync(outsideDir, { recursive: true, force: true });
});

const SWAPPER = `
const fs = require('node:fs');
const [dir, outside] = process.argv.slice(1);
const t = dir + '/t.txt';
let n = 0;
const end = Date.now() + Number(process.argv[3]);
while (Date.now() < end) {
  try { fs.symlinkSync(outside, dir + '/.s'); fs.renameSync(dir + '/.s', t); } catch {}
  try { fs.linkSync(dir + '/real.txt', dir + '/.h'); fs.renameSync(dir + '/.h', t); } catch {}
  n++;
}
process.stdout.write(String(n));
`;

describe('hard-linked file swapped for a link to outside', () => {
  it('write and edit of the name never change the outside file', async () => {
    const outside = join(outsideDir, 'secret.txt');
    writeFileSync(outside, 'OUTSIDE\n');
    writeFileSync(join(tmp.dir, 'real.txt'), 'inside 0\n');
    linkSync(join(tmp.dir, 'real.txt'), join(tmp.dir, 't.txt'));
    const ws = new LocalWorkspace({ root: tmp.dir });
    const child = spawn(process.execPath, ['-e', SWAPPER, tmp.dir, outside, '1000'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let swaps = '';
    child.stdout.on('data', (d: Buffer) => {
      swaps += d.toString();
    });
    const done = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    let wrote = 0;
    let refused = 0;
    let running = true;
    void done.then(() => {
      running = false;
    });
    for (let i = 0; running; i++) {
      try {
        const r =
          i % 2 === 0
            ? await call(writeTool, ws, { file_path: 't.txt', content: `inside ${i}\n` })
            : await call(editTool, ws, { file_path: 't.txt', old_string: 'inside', new_string: 'inside' + ' ' });
        if (r.exitCode === 0) wrote++;
        else refused++;
      } catch (error) {
        if (!A3sError.isInstance(error)) throw error;
        refused++;
      }
    }
    await done;
    expect(Number(swaps)).toBeGreaterThan(10);
    expect(wrote + refused).toBeGreaterThan(10);
    expect(readFileSync(outside, 'utf8')).toBe('OUTSIDE\n');
  }, 20_000);
});
