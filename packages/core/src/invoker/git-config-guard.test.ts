// What a command allowed unasked adds to a git configuration file under a key git runs is taken
// out again, and the key's earlier values put back; everything else it wrote stays.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mendConfigs, snapshotConfigs } from './git-config-guard.js';

const dir = mkdtempSync(join(tmpdir(), 'a3s-gitcfg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const get = (file: string, key: string) =>
  execFileSync('git', ['config', '--file', file, '--get-all', key], { encoding: 'utf8' }).trim();

describe('git configuration settings that run programs', () => {
  it('takes out what was added under such a key, puts back its earlier value, and keeps the rest', async () => {
    const file = join(dir, 'config');
    writeFileSync(file, '[core]\n\tpager = less\n[user]\n\tname = t\n');
    const before = await snapshotConfigs([{ path: file, shown: '.git/config' }]);
    writeFileSync(
      file,
      '[core]\n\tpager = touch PWNED\n\tfsmonitor = touch PWNED\n[user]\n\tname = t\n[branch "Main"]\n\tremote = origin\n[Alias]\n\tst = !touch PWNED\n',
    );
    const mended = await mendConfigs(before);
    expect(mended).toEqual({ restored: ['.git/config (core.pager, core.fsmonitor, alias.st)'] });
    expect(get(file, 'core.pager')).toBe('less');
    expect(get(file, 'branch.Main.remote')).toBe('origin');
    expect(readFileSync(file, 'utf8')).not.toMatch(/fsmonitor|PWNED/);
  });

  it('takes out a trailer command, an IMAP tunnel and an alternate refs command, and keeps other trailer settings', async () => {
    const file = join(dir, 'trailers');
    writeFileSync(file, '[user]\n\tname = t\n');
    const before = await snapshotConfigs([{ path: file, shown: 'trailers' }]);
    writeFileSync(
      file,
      '[user]\n\tname = t\n[trailer]\n\twhere = end\n[trailer "x"]\n\tcmd = touch PWNED\n\tcommand = touch PWNED\n[imap]\n\ttunnel = touch PWNED\n[core]\n\talternateRefsCommand = touch PWNED\n',
    );
    expect(await mendConfigs(before)).toEqual({
      restored: ['trailers (trailer.x.cmd, trailer.x.command, imap.tunnel, core.alternaterefscommand)'],
    });
    expect(get(file, 'trailer.where')).toBe('end');
    expect(readFileSync(file, 'utf8')).not.toContain('PWNED');
  });

  it('leaves a file alone when only everyday settings changed, and mends a file made since', async () => {
    const kept = join(dir, 'kept');
    const made = join(dir, 'made');
    writeFileSync(kept, '[user]\n\tname = t\n');
    const before = await snapshotConfigs([
      { path: kept, shown: 'kept' },
      { path: made, shown: 'made' },
    ]);
    writeFileSync(kept, '[user]\n\tname = other\n[remote "origin"]\n\turl = https://example.com/r.git\n');
    writeFileSync(made, '[include]\n\tpath = ../evil.cfg\n');
    expect(await mendConfigs(before)).toEqual({ restored: ['made (include.path)'] });
    expect(get(kept, 'remote.origin.url')).toBe('https://example.com/r.git');
    expect(readFileSync(made, 'utf8')).not.toContain('evil');
  });

  it('removes a symbolic link put in place of a configuration file, and says when a file cannot be read', async () => {
    const linked = join(dir, 'linked');
    const broken = join(dir, 'broken');
    writeFileSync(linked, '[user]\n\tname = t\n');
    writeFileSync(broken, '[user]\n\tname = t\n');
    const before = await snapshotConfigs([
      { path: linked, shown: 'linked' },
      { path: broken, shown: 'broken' },
    ]);
    rmSync(linked);
    writeFileSync(join(dir, 'elsewhere'), '[core]\n\tfsmonitor = touch PWNED\n');
    symlinkSync(join(dir, 'elsewhere'), linked);
    writeFileSync(broken, '[core\n\tfsmonitor = x\n');
    expect(await mendConfigs(before)).toEqual({
      restored: ['linked (a symbolic link put in its place)'],
      problem: 'broken cannot be read as git configuration any more',
    });
    expect(readFileSync(linked, 'utf8')).toBe('[user]\n\tname = t\n');
  });

  it('mends a dotfile kept elsewhere through its link, which stays a link, and keeps its own aliases', async () => {
    const real = join(dir, 'dotfiles-gitconfig');
    const home = join(dir, 'home-gitconfig');
    writeFileSync(real, '[alias]\n\tco = checkout\n');
    symlinkSync(real, home);
    const before = await snapshotConfigs([{ path: home, shown: '~/.gitconfig' }]);
    writeFileSync(real, '[alias]\n\tco = checkout\n\tst = !touch PWNED\n');
    expect(await mendConfigs(before)).toEqual({ restored: ['~/.gitconfig (alias.st)'] });
    expect(lstatSync(home).isSymbolicLink()).toBe(true);
    expect(get(real, 'alias.co')).toBe('checkout');
    expect(readFileSync(real, 'utf8')).not.toContain('PWNED');
  });
});
