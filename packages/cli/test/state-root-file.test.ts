// A file where the workspace's `.a3s` folder belongs: every command that keeps or reads state
// there names that file and says to move or remove it (exit 2), instead of a link that is not
// there, advice that does not work (persistence: 'memory') or a raw ENOTDIR.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { a3s, scriptFile } from './kit.js';

describe('.a3s is a file', () => {
  const ws = mkdtempSync(join(tmpdir(), 'a3s-state-file-'));
  writeFileSync(join(ws, '.a3s'), 'not a folder\n');
  const model = `scripted:${scriptFile([{ text: 'ok' }])}`;
  const named = `${join(ws, '.a3s')} is a file, not a folder`;

  it.each([
    ['run', ['run', '--model', model, '--cwd', ws, 'hi']],
    ['code', ['code', '--model', model, '--cwd', ws]],
    ['sessions', ['sessions', '--cwd', ws]],
    ['sessions --resume', ['sessions', '--cwd', ws, '--resume', 's1']],
    ['replay <dir>', ['replay', ws]],
    ['replay <id>', ['replay', '--cwd', ws, 's1']],
  ])('LOG-05: a3s %s names the file and says to move or remove it (exit 2)', (_name, args) => {
    const r = a3s(args, {}, '');
    expect(r.stderr).toContain(named);
    expect(r.stderr).toContain(`move it aside (mv ${join(ws, '.a3s')} ${join(ws, '.a3s')}.bak) or remove it`);
    expect(r.stderr).not.toMatch(/persistence|remove the link|ENOTDIR|no fact logs/);
    expect(r.status, r.stderr).toBe(2);
  });

  it("LOG-05: persistence: 'memory' in the config file changes nothing, so it is not offered", () => {
    const other = mkdtempSync(join(tmpdir(), 'a3s-state-file-'));
    writeFileSync(join(other, '.a3s'), '');
    writeFileSync(join(other, 'a3s.config.json'), '{ "persistence": "memory" }\n');
    const r = a3s(['run', '--model', model, '--cwd', other, 'hi']);
    expect(r.stderr).toContain(`${join(other, '.a3s')} is a file, not a folder`);
    expect(r.stderr).not.toContain('persistence');
    expect(r.status).toBe(2);
  });

  it('LOG-05: a .a3s that is a symbolic link is named as one, with the link to remove', () => {
    const other = mkdtempSync(join(tmpdir(), 'a3s-state-link-'));
    const target = mkdtempSync(join(tmpdir(), 'a3s-state-target-'));
    mkdirSync(join(target, 'effect-log'));
    symlinkSync(target, join(other, '.a3s'));
    const r = a3s(['run', '--model', model, '--cwd', other, 'hi']);
    expect(r.stderr).toContain(`${join(other, '.a3s')} is a symbolic link, not a folder`);
    expect(r.stderr).toContain(`remove the link (rm ${join(other, '.a3s')})`);
    expect(r.stderr).not.toContain('persistence');
    expect(r.status).toBe(2);
  });
});
