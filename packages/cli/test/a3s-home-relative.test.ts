// A relative A3S_HOME would name another folder from each folder a3s starts in (the trust record
// written inside the workspace, the folder untrusted again with -C from elsewhere): refused, exit 2.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3S, scriptFile, tempRepo } from './kit.js';
import { spawnSync } from 'node:child_process';

describe('a relative A3S_HOME', () => {
  it('is refused before anything is written, naming the variable and that it must be absolute', () => {
    const dir = tempRepo();
    writeFileSync(join(dir, 'a3s.config.json'), JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] } }));
    const model = `scripted:${scriptFile([{ text: 'hi' }])}`;
    for (const args of [['run', '--trust-workspace', '-m', model, 'hi'], ['tools'], ['sessions']]) {
      const r = spawnSync(process.execPath, [A3S, ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, A3S_HOME: 'state', A3S_MODEL: '' },
      });
      expect(r.status, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`a3s ${args[0]}: A3S_HOME: must be an absolute path, got 'state'`);
    }
    expect(existsSync(join(dir, 'state'))).toBe(false);
    // Help still answers.
    const help = spawnSync(process.execPath, [A3S, 'run', '--help'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, A3S_HOME: 'state' },
    });
    expect(help.status).toBe(0);
  });
});
