// A hard link made before the session is a second name for a ruled file: `ln .env notes.txt`.
// No rule names notes.txt, so the files the rules keep are looked up by inode: each other name
// in the workspace is kept the same way, from commands and from the file tools.
import { existsSync, linkSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, expectNoLeak, NESTED, results, run, SECRET, workspace } from './read-deny-kit.js';

const CAN_HIDE = process.platform === 'linux' && existsSync('/proc/self/environ');
const bash = (id: string, command: string) => call(id, 'bash', { command });

describe.skipIf(!CAN_HIDE)('other names (hard links) of ruled files', () => {
  it('PERM-02: a hard link to a read-denied file is refused to read and grep, hidden from commands; one to a write-denied file is read-only', async () => {
    const dir = workspace();
    linkSync(join(dir, '.env'), join(dir, 'notes.txt'));
    linkSync(join(dir, 'secret', 'k.ts'), join(dir, 'src', 'k-copy.ts'));
    const { session, events } = await run(
      dir,
      [
        call('r1', 'read', { file_path: 'notes.txt' }),
        call('g1', 'grep', { pattern: 'hunter2', path: '.' }),
        bash('b1', 'cat notes.txt 2>&1; echo pwned > src/k-copy.ts 2>&1; cat src/k-copy.ts 2>&1 | head -1'),
        call('e1', 'edit', { file_path: 'src/k-copy.ts', old_string: 'export', new_string: '// pwned\nexport' }),
        call('w1', 'write', { file_path: 'src/k-copy.ts', content: 'pwned\n' }),
      ],
      { permissions: { deny: ['Read(.env)', 'Write(secret/**)'] } },
    );
    const got = results(session);
    expect(got.get('r1')?.ok).toBe(false);
    expect(got.get('r1')?.output).toContain('notes.txt, which is another name, a hard link, of .env');
    expect(got.get('g1')?.output).not.toContain('notes.txt');
    expect(got.get('b1')?.output).toMatch(/Read-only file system|Permission denied/);
    // The file tools may change the other name only by replacing it: the ruled file stays as it was.
    expect(readFileSync(join(dir, 'secret', 'k.ts'), 'utf8')).toBe(`export const KEY = '${NESTED}';\n`);
    expectNoLeak(dir, session, events, [SECRET]);
  });
});
