// `debug breakpoints` checks a source file's length before it asks the adapter: for a file the
// read rules keep from the session, that answer (whether the file exists, how many lines it has)
// is its content too, so the call is refused by the rule, as `read` is, whatever the spelling.
import { describe, expect, it } from 'vitest';
import { call, results, run, workspace } from './read-deny-kit.js';

const bp = (id: string, file: string) => call(id, 'debug', { op: 'breakpoints', file, lines: [1000] });

describe('debug breakpoints under read rules', () => {
  it('PERM-02: a file a read deny rule keeps gets no breakpoint and no line count, by any spelling', async () => {
    const dir = workspace();
    const { session } = await run(
      dir,
      [
        bp('env', '.env'),
        bp('abs', `${dir}/.env`),
        bp('link', 'alias'),
        bp('nested', 'vault/k.ts'),
        bp('open', 'src/range.js'),
      ],
      { governance: { yolo: false }, permissions: { allow: ['debug'], deny: ['Read(.env)', 'Read(secret/**)'] } },
    );
    const got = results(session);
    for (const id of ['env', 'abs', 'link', 'nested']) {
      expect(got.get(id)?.output, id).toContain('so no breakpoint is set in it');
      expect(got.get(id)?.output, id).not.toMatch(/has \d+ line/);
    }
    expect(got.get('env')?.output).toContain('Permission denied: Read(.env) (breakpoints in .env');
    expect(got.get('env')?.ok).toBe(false);
    // A file the rules do not cover is checked as before.
    expect(got.get('open')?.output).toContain('src/range.js has 5 lines, so line 1000 cannot be hit');
  });

  it('PERM-05: a file under a read ask rule with nobody to approve gets no breakpoint and no line count', async () => {
    const dir = workspace();
    const { session } = await run(dir, [bp('env', '.env')], {
      governance: { yolo: false },
      permissions: { allow: ['debug'], ask: ['Read(.env)'] },
    });
    const out = results(session).get('env')?.output ?? '';
    expect(out).toContain('so no breakpoint is set in it');
    expect(out).not.toMatch(/has \d+ line/);
  });
});
