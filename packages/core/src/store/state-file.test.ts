// What a command can leave in place of a saved session or an attachment's bytes under `.a3s/`
// (a link to a file outside the workspace or to /dev/zero, a FIFO, a folder): it is refused at
// once, typed and named, never followed, read without end, or waited on.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileAttachmentStore } from '../attachments/attachment-store.js';
import { FileSessionStore } from '../session/file-session-store.js';
import { readStateFile } from './state-file.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'a3s-state-file-'));

/** A workspace with `.a3s/<sub>`, and a file outside it that stands for the user's `~/.bashrc`. */
function workspace(sub: string): { ws: string; dir: string; outside: string } {
  const ws = tmp();
  const dir = join(ws, '.a3s', sub);
  mkdirSync(dir, { recursive: true });
  const outside = join(tmp(), 'bashrc');
  writeFileSync(outside, '{"secret":"do not read"}\n');
  return { ws, dir, outside };
}

describe('a saved session file that is not a regular file', () => {
  it('a FIFO, a link outside, a link to /dev/zero or a folder is refused unread, naming the path', async () => {
    const { ws, dir, outside } = workspace('sessions');
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    symlinkSync(outside, join(dir, 'link.json'));
    symlinkSync('/dev/zero', join(dir, 'zero.json'));
    mkdirSync(join(dir, 'folder.json'));
    const store = new FileSessionStore(ws);
    const cases: [string, string][] = [
      ['fifo', 'is a FIFO (named pipe)'],
      ['link', 'is a symbolic link'],
      ['zero', 'is a symbolic link'],
      ['folder', 'is a folder'],
    ];
    for (const [id, problem] of cases) {
      const error = await store.loadSnapshot(id).catch((e: unknown) => e);
      expect(error, id).toMatchObject({ code: 'SESSION_STORE', cause: { code: 'STATE_FILE', problem } });
      expect((error as Error).message).toContain(`state file '${join(dir, `${id}.json`)}' ${problem}`);
      // Nothing of the file behind the link shows up in the error.
      expect((error as Error).message).not.toContain('do not read');
    }
  });

  it('listing the saved sessions skips them instead of waiting on the FIFO', async () => {
    const { ws, dir, outside } = workspace('sessions');
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    symlinkSync(outside, join(dir, 'link.json'));
    expect(await new FileSessionStore(ws).listSessions()).toEqual([]);
  });
});

describe("an attachment's stored bytes that are not a regular file", () => {
  const sha = (c: string) => c.repeat(64);

  it('a FIFO, a link outside or a link to /dev/zero is refused with STATE_FILE naming it', async () => {
    const { dir, outside } = workspace('artifacts');
    execFileSync('mkfifo', [join(dir, sha('a'))]);
    symlinkSync(outside, join(dir, sha('b')));
    symlinkSync('/dev/zero', join(dir, sha('c')));
    const store = new FileAttachmentStore(dir);
    for (const [c, problem] of [
      ['a', 'is a FIFO (named pipe)'],
      ['b', 'is a symbolic link'],
      ['c', 'is a symbolic link'],
    ] as const)
      await expect(store.get(sha(c)), c).rejects.toMatchObject({
        code: 'STATE_FILE',
        path: join(dir, sha(c)),
        problem,
      });
    expect(await store.get(sha('d'))).toBeUndefined();
  });

  it('storing bytes replaces a link of the same size in their place, and the file outside is left alone', async () => {
    const { dir, outside } = workspace('artifacts');
    const bytes = new Uint8Array(Buffer.from('x'.repeat(readFileSync(outside).length)));
    symlinkSync(outside, join(dir, sha('e')));
    await new FileAttachmentStore(dir).put(sha('e'), bytes);
    expect(lstatSync(join(dir, sha('e'))).isFile()).toBe(true);
    expect(await new FileAttachmentStore(dir).get(sha('e'))).toEqual(bytes);
    expect(readFileSync(outside, 'utf8')).toBe('{"secret":"do not read"}\n');
  });

  it('a file over the limit is refused before it is read', async () => {
    const { dir } = workspace('artifacts');
    writeFileSync(join(dir, 'big'), Buffer.alloc(100));
    await expect(readStateFile(join(dir, 'big'), 99)).rejects.toMatchObject({
      code: 'STATE_FILE',
      problem: 'is 100 bytes, over the 99 bytes such a file can have',
    });
    expect(await readStateFile(join(dir, 'big'), 100)).toHaveLength(100);
  });
});
