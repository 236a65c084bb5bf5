import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permissions/permission-policy.js';
import { filesToHide, HIDE_SEARCH_LIMIT, literalNames, mayMatchUnder } from './files-to-hide.js';

const root = mkdtempSync(join(tmpdir(), 'a3s-hide-'));
const outside = mkdtempSync(join(tmpdir(), 'a3s-hide-out-'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});
const tree: Record<string, string> = {
  '.env': 'x',
  '.env.local': 'x',
  'secret/k.ts': 'x',
  'secret/deep/k.ts': 'x',
  'keys/a.pem': 'x',
  'keys/a.txt': 'x',
  'src/b.pem': 'x',
  'src/c.ts': 'x',
  'docs/readme.md': 'x',
};
for (const [path, text] of Object.entries(tree)) {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}
symlinkSync(join(root, '.env'), join(root, 'alias'));
mkdirSync(join(outside, 'ssh'));
writeFileSync(join(outside, 'ssh', 'id'), 'x');

const hide = (config: ConstructorParameters<typeof PermissionPolicy>[0], ask = false) =>
  filesToHide(root, new PermissionPolicy(config), ask, 'bash');
const rel = (paths: readonly string[]) => paths.map((p) => p.slice(root.length + 1)).sort();

describe('the files a command must not reach under path rules', () => {
  it('PERM-02: read deny rules give files, whole folders, links named by the rule and nested matches', async () => {
    const h = await hide({ deny: ['Read(.env)', 'Read(secret/**)', 'Read(**/*.pem)', 'Read(alias)'] });
    expect(rel(h.unreadable)).toEqual(['.env', 'alias', 'keys/a.pem', 'secret', 'src/b.pem']);
    expect(h.unwritable).toEqual([]);
  });

  it('PERM-02: write deny rules give read-only paths; a read deny inside one still hides', async () => {
    const h = await hide({ deny: ['Write(secret/**)', 'Edit(docs/*.md)', 'Read(secret/deep/k.ts)'] });
    expect(rel(h.unwritable)).toEqual(['docs/readme.md', 'secret']);
    expect(rel(h.unreadable)).toEqual(['secret/deep/k.ts']);
  });

  it('PERM-02: a literal name after ** is found at every depth, not only right under the top', async () => {
    const deep = ['a/b/.env', 'a/b/c/.env', 'x/y/workflows/k.yml', 'x/workflows/k.yml'];
    for (const path of deep) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), 'x');
    }
    try {
      const h = await hide({ deny: ['Read(**/.env)', 'Write(**/workflows/**)', 'Read(a/**/c/.env)'] });
      expect(rel(h.unreadable)).toEqual(['.env', 'a/b/.env', 'a/b/c/.env']);
      expect(rel(h.unwritable)).toEqual(['x/workflows', 'x/y/workflows']);
      expect(rel((await hide({ deny: ['Read(secret/**/k.ts)'] })).unreadable)).toEqual([
        'secret/deep/k.ts',
        'secret/k.ts',
      ]);
    } finally {
      rmSync(join(root, 'a'), { recursive: true, force: true });
      rmSync(join(root, 'x'), { recursive: true, force: true });
    }
  });

  it('PERM-06: ask rules count only for a call nobody confirmed', async () => {
    expect((await hide({ ask: ['Read(.env.local)'] })).unreadable).toEqual([]);
    expect(rel((await hide({ ask: ['Read(.env.local)'] }, true)).unreadable)).toEqual(['.env.local']);
  });

  it('PERM-02: an absolute rule outside the workspace is searched along its own path', async () => {
    const h = await hide({ deny: [`Read(${outside}/ssh/**)`, `Read(${root}/.env)`] });
    expect([...h.unreadable].sort()).toEqual([join(root, '.env'), join(outside, 'ssh')].sort());
  });

  it('PERM-02: a name is matched in one Unicode normal form, whichever the disk holds', async () => {
    const nfd = 'cle\u0301.txt';
    writeFileSync(join(root, nfd), 'x');
    try {
      expect(rel((await hide({ deny: ['Read(cl\u00e9.txt)'] })).unreadable)).toEqual([nfd]);
    } finally {
      rmSync(join(root, nfd));
    }
  });

  it('no path rule, or rules of other tools, give nothing; a root that is no folder gives nothing', async () => {
    expect(await hide({ deny: ['Bash(rm:*)', 'web_fetch'] })).toEqual({ unreadable: [], unwritable: [] });
    const none = await filesToHide('/no/such/root', new PermissionPolicy({ deny: ['Read(.env)'] }), false, 'bash');
    expect(none).toEqual({ unreadable: [], unwritable: [] });
  });

  it('goes into a folder only where a pattern can still match below it', () => {
    expect(mayMatchUnder('.env', [])).toBe(true);
    expect(mayMatchUnder('.env', ['src'])).toBe(false);
    expect(mayMatchUnder('secret/**', ['secret', 'a'])).toBe(true);
    expect(mayMatchUnder('secret/*.key', ['secret'])).toBe(true);
    expect(mayMatchUnder('secret/*.key', ['secret', 'a'])).toBe(false);
    expect(mayMatchUnder('s*/x', ['src'])).toBe(true);
    expect(mayMatchUnder('**/*.pem', ['a', 'b', 'c'])).toBe(true);
    expect(mayMatchUnder('npm run:*', ['npm run'])).toBe(true);
  });

  it('refuses the command when the files cannot all be listed', async () => {
    const policy = new PermissionPolicy({ deny: ['Read(**/*.pem)'] });
    expect(HIDE_SEARCH_LIMIT).toBe(100_000);
    expect((await filesToHide(root, policy, false, 'bash', 20)).unreadable.length).toBe(2);
    await expect(filesToHide(root, policy, false, 'bash', 5)).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining(
        'could not all be listed (over 5 entries) to keep them from the command; it was not run',
      ),
    });
  });

  it('PERM-02: a name every rule spells out is looked up, so a crowded folder on the way costs nothing', async () => {
    const crowd = join(outside, 'crowd');
    mkdirSync(join(crowd, 'keys'), { recursive: true });
    for (let i = 0; i < 300; i++) writeFileSync(join(crowd, `f${i}`), 'x');
    for (let i = 0; i < 300; i++) writeFileSync(join(root, `many-${i}.txt`), 'x');
    writeFileSync(join(crowd, 'keys', 'id'), 'x');
    try {
      const policy = new PermissionPolicy({ deny: [`Read(${crowd}/keys/**)`, 'Read(.env)', 'Write(secret/k.ts)'] });
      const h = await filesToHide(root, policy, false, 'bash', 20);
      expect([...h.unreadable].sort()).toEqual([join(crowd, 'keys'), join(root, '.env')].sort());
      expect(rel(h.unwritable)).toEqual(['secret/k.ts']);
      // A wildcard beside them means the crowded folder is listed, and then the limit holds.
      const listed = new PermissionPolicy({ deny: [`Read(${crowd}/keys/**)`, `Read(${crowd}/f1*)`] });
      await expect(filesToHide(root, listed, false, 'bash', 20)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    } finally {
      rmSync(crowd, { recursive: true, force: true });
      for (let i = 0; i < 300; i++) rmSync(join(root, `many-${i}.txt`));
    }
  });

  it('looks a name up only when it is plain ASCII text with no wildcard', () => {
    expect(literalNames(['tmp/x/**', 'tmp/y'], 0)).toEqual(['tmp']);
    expect(literalNames(['tmp/x/**', 'tmp/y'], 1)).toEqual(['x', 'y']);
    expect(literalNames(['tmp/x/**'], 2)).toBeUndefined();
    expect(literalNames(['.env', 'a*'], 0)).toBeUndefined();
    expect(literalNames(['a?c'], 0)).toBeUndefined();
    expect(literalNames(['cl\u00e9.txt'], 0)).toBeUndefined();
    expect(literalNames(['../x', './y'], 0)).toBeUndefined();
    expect(literalNames(['.env:*'], 0)).toBeUndefined();
    expect(literalNames(['a b+(c)@~.d'], 0)).toEqual(['a b+(c)@~.d']);
    // After a `**` a name can be at any depth.
    expect(literalNames(['**/.env'], 1)).toBeUndefined();
    expect(literalNames(['**/.env'], 3)).toBeUndefined();
    expect(literalNames(['src/**/x/y'], 2)).toBeUndefined();
    expect(literalNames(['.git**/config'], 1)).toBeUndefined();
    expect(literalNames(['a/*/c'], 2)).toEqual(['c']);
  });
});
