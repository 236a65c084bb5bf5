// A user's `a3s.config.json` denies reading `.env` and changing `secret/`; the model (here a
// script) tries both through `bash`. `a3s run` keeps the secret out of everything it prints and
// writes, and leaves `secret/` as it was, while the rest of the workspace stays usable.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, scriptFile, tempRepo } from './kit.js';

const CAN_HIDE = process.platform === 'linux' && existsSync('/proc/self/environ');
const SECRET = 'hunter2-6c1d9e';

describe.skipIf(!CAN_HIDE)('path rules of the workspace config hold for bash in a3s run', () => {
  it('PERM-02: cat .env and a write into secret/ fail; the secret reaches no output and no log', async () => {
    const repo = tempRepo();
    writeFileSync(join(repo, '.env'), `TOKEN=${SECRET}\n`);
    mkdirSync(join(repo, 'secret'));
    writeFileSync(join(repo, 'secret', 'keep.txt'), 'kept\n');
    writeFileSync(
      join(repo, 'a3s.config.json'),
      JSON.stringify({ permissions: { deny: ['Read(.env)', 'Write(secret/**)'] } }),
    );
    const model = `scripted:${scriptFile([
      {
        tool_calls: [
          { id: 'b1', name: 'bash', args: { command: 'cat .env; echo gone > secret/keep.txt; echo ok > notes.txt' } },
        ],
      },
      { text: 'Done.' },
    ])}`;
    const run = await runMain(['run', '--yolo', '--json', '--session', 's1', '--model', model, 'look around'], {
      cwd: repo,
    });
    expect(run.stdout + run.stderr).not.toContain(SECRET);
    expect(run.stdout).toContain('.env: Permission denied');
    expect(run.stdout).toContain('Read-only file system');
    expect(readFileSync(join(repo, 'secret', 'keep.txt'), 'utf8')).toBe('kept\n');
    expect(readFileSync(join(repo, 'notes.txt'), 'utf8')).toBe('ok\n');
    const logs = join(repo, '.a3s', 'effect-log');
    for (const f of readdirSync(logs)) expect(readFileSync(join(logs, f), 'utf8')).not.toContain(SECRET);
  });
});
