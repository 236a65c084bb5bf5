import { describe, expect, it } from 'vitest';
import { parseConfigList, safeGitSettings } from './git-safety.js';

const listing = (records: Array<[origin: string, key: string, value?: string]>): string =>
  records.map(([origin, key, value]) => `${origin}\0${value === undefined ? key : `${key}\n${value}`}\0`).join('');

describe('safe git settings', () => {
  it('turn off every program a config can name, including ones only transports and signing use', () => {
    const keys = safeGitSettings([], '/ws').map((s) => s.slice(0, s.indexOf('=')));
    for (const key of [
      'core.hooksPath',
      'core.fsmonitor',
      'core.pager',
      'core.editor',
      'sequence.editor',
      'core.askPass',
      'core.sshCommand',
      'credential.helper',
      'diff.external',
      'gpg.program',
      'gpg.ssh.program',
      'log.showSignature',
      'protocol.allow',
      'safe.bareRepository',
    ]) {
      expect(keys).toContain(key);
    }
    expect(safeGitSettings([], '/ws')).toContain('core.hooksPath=/dev/null');
    expect(safeGitSettings([], '/ws')).toContain('credential.helper=');
  });

  it('empty the commands of every configured diff, filter and merge driver, keeping subsection case', () => {
    const entries = parseConfigList(
      listing([
        ['file:.git/config', 'core.bare', 'false'],
        ['file:.git/config', 'diff.Evil.textconv', 'touch x'],
        ['file:.git/config', 'diff.evil.command', 'touch x'],
        ['file:.git/config', 'filter.lfs.process', 'touch x'],
        ['file:.git/config', 'filter.lfs.required', 'true'],
        ['file:.git/config', 'merge.ours.driver', 'touch x'],
        ['file:.git/config', 'core.flag'],
      ]),
    );
    expect(entries.at(-1)).toEqual({ origin: 'file:.git/config', key: 'core.flag', value: undefined });
    const settings = safeGitSettings(entries, '/ws');
    expect(settings).toEqual(
      expect.arrayContaining([
        'diff.Evil.textconv=',
        'diff.evil.command=',
        'filter.lfs.process=',
        'filter.lfs.required=false',
        'merge.ours.driver=',
      ]),
    );
    expect(settings.some((s) => s.startsWith('core.bare'))).toBe(false);
  });

  it('refuse a config that includes a file tools can write, but not one inside .git or outside', () => {
    const including = (value: string, origin = 'file:.git/config') =>
      parseConfigList(listing([[origin, 'include.path', value]]));
    expect(() => safeGitSettings(including('../shared.gitconfig'), '/ws')).toThrow(/WORKSPACE_PROCESS|tools can write/);
    expect(() => safeGitSettings(including('/ws/sub/x.cfg'), '/ws')).toThrow(/tools can write/);
    expect(() =>
      safeGitSettings(
        parseConfigList(listing([['file:.git/config', 'includeif.onbranch:main.path', '../x.cfg']])),
        '/ws',
      ),
    ).toThrow(/tools can write/);
    expect(() => safeGitSettings(including('extra.cfg'), '/ws')).not.toThrow();
    expect(() => safeGitSettings(including('/etc/gitconfig.d/x'), '/ws')).not.toThrow();
    expect(() => safeGitSettings(including('../.a3s/x.cfg'), '/ws')).not.toThrow();
  });

  it('refuse a config whose core.worktree leads out of the workspace, so checkout never writes outside', () => {
    const worktree = (value: string) => parseConfigList(listing([['file:.git/config', 'core.worktree', value]]));
    expect(() => safeGitSettings(worktree('/tmp/elsewhere'), '/ws')).toThrow(/core\.worktree.*outside the workspace/);
    expect(() => safeGitSettings(worktree('../../outside'), '/ws')).toThrow(/outside the workspace/);
    expect(() => safeGitSettings(worktree('..'), '/ws')).not.toThrow();
    expect(() => safeGitSettings(worktree('/ws/sub'), '/ws')).not.toThrow();
  });
});
