// Rules whose pattern puts a plain name after `**` (`Read(**/.env)`, `Write(**/workflows/**)`),
// the way people write "this name anywhere", held against model-side commands under YOLO (where a
// deny stays final). The search for what a command must not reach once looked such a name up only
// right under the top folder: `cat a/b/.env` read the deep file, and a workflow made two folders
// down stayed. Now every depth is held, as the file tools hold it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, results, run, workspace } from './read-deny-kit.js';

const CAN_HIDE = process.platform === 'linux' && existsSync('/proc/self/environ');
const DEEP = 'TOKEN=deep-secret-5521';

describe.skipIf(!CAN_HIDE)('a name after ** is held at every depth against commands', () => {
  it('PERM-02: cat of a deep .env under Read(**/.env) reads nothing; a deep workflows folder under Write(**/workflows/**) is removed', async () => {
    const dir = workspace();
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    writeFileSync(join(dir, 'a', 'b', '.env'), `${DEEP}\n`);
    const { session } = await run(
      dir,
      [
        call('r1', 'read', { file_path: 'a/b/.env' }),
        call('b1', 'bash', { command: 'cat a/b/.env; echo end' }),
        call('b2', 'bash', { command: 'mkdir -p x/y/workflows && echo evil > x/y/workflows/k.yml && echo wrote' }),
      ],
      { permissions: { deny: ['Read(**/.env)', 'Write(**/workflows/**)'] } },
    );
    const got = results(session);
    expect(got.get('r1')?.output).toBe('Permission denied: Read(**/.env)');
    expect(got.get('b1')?.output).not.toContain(DEEP);
    expect(got.get('b1')?.output).toContain('end');
    expect(got.get('b2')?.metadata).toMatchObject({ denied_writes: { removed: ['x/y/workflows'] } });
    expect(existsSync(join(dir, 'x', 'y', 'workflows'))).toBe(false);
  });
});
