// The programs a Bash deny rule denies with every argument, and their files: looked up on the
// search path by real name, a multi-call binary left alone.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PermissionPolicy } from '../permissions/permission-policy.js';
import { deniedProgramFiles, programsToKeep } from './denied-programs.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-denied-programs-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function program(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

describe('denied programs', () => {
  it('PERM-02: a rule denying every call of a program names it; one denying some calls does not', () => {
    const policy = new PermissionPolicy({
      deny: ['Bash(curl:*)', 'Bash(wget *)', 'Bash(git push:*)', 'Bash(rm)', 'Bash(*)', 'Read(.env)', 'Bash(curl:*)'],
    });
    expect(policy.deniedPrograms).toEqual(['curl', 'wget']);
    expect(new PermissionPolicy({ ask: ['Bash(curl:*)'] }).deniedPrograms).toEqual([]);
  });

  it('PERM-02: finds the real file of each name on the search path, through links of other names, and leaves a multi-call binary alone', () => {
    const bin = join(root, 'bin');
    mkdirSync(bin);
    const curl = program(join(root, 'real', 'curl'));
    symlinkSync(curl, join(bin, 'curl'));
    const tool = program(join(bin, 'a3stool3.11'));
    symlinkSync(tool, join(bin, 'a3stool3'));
    const busybox = program(join(bin, 'busybox'));
    symlinkSync(busybox, join(bin, 'wget'));
    // A program reached through an alternatives link under another name is kept.
    const vim = program(join(root, 'alt', 'a3svim.basic'));
    symlinkSync(vim, join(bin, 'a3svi'));
    // One leading to a shared program (node under another name) is not.
    symlinkSync(process.execPath, join(bin, 'a3snodejs'));
    // The system's program folders are looked in too.
    const found = deniedProgramFiles(['curl', 'a3stool3', 'wget', 'a3svi', 'a3snodejs', 'missing'], `${bin}:rel/dir`);
    expect(found).toEqual(expect.arrayContaining([curl, tool, vim]));
    expect(found).not.toContain(busybox);
    expect(found).not.toContain(realpathSync(process.execPath));
    expect(found.filter((f) => f.startsWith(root))).toEqual([tool, vim, curl].sort());
    expect(deniedProgramFiles([], bin)).toEqual([]);
  });

  it('PERM-02: the programs builds and scripts run on are never kept from commands', () => {
    program(join(root, 'shared', 'rm'));
    expect(deniedProgramFiles(['rm', 'perl', 'sh', 'git', 'python3', 'node'], join(root, 'shared'))).toEqual([]);
    expect(programsToKeep(['rm', 'curl', 'perl', 'wget'])).toEqual(['curl', 'wget']);
  });
});
