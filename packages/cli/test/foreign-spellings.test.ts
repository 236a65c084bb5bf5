// What Codex and Claude Code users type on their first day gets a did-you-mean naming the a3s
// command that does it (exit 2, nothing run), not a prompt with the word folded in
// (`a3s run "exec fix the bug"`) or an unknown option of `a3s code` with no pointer.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, tempRepo } from './kit.js';

describe('Codex and Claude Code spellings', () => {
  it('each is answered with the a3s command, exit 2, nothing run', async () => {
    const cases: [string[], string][] = [
      [['exec', 'fix the bug'], `a3s: 'a3s exec' is Codex's spelling; a3s runs one prompt with: a3s run "fix the bug"`],
      [['exec', 'fix', 'it'], 'a3s run "fix it"'],
      [
        ['-p', 'fix the bug'],
        'a3s: -p is Claude Code\'s flag for one prompt; a3s runs one prompt with: a3s run "fix the bug"',
      ],
      [
        ['--print', 'say "hi"'],
        `--print is Claude Code's flag for one prompt; a3s runs one prompt with: a3s run 'say "hi"'`,
      ],
      [['--print=hello'], 'a3s run "hello"'],
      [['-m', 'openai/gpt-4o', '-p'], 'a3s run "<prompt>"'],
      [
        ['--continue'],
        "a3s: --continue is Claude Code's flag for continuing a conversation; in a3s, a3s sessions --resume <id>",
      ],
      [['-c'], 'a3s sessions --resume <id> continues a session (a3s sessions lists them, newest first)'],
      [['--resume'], 'a3s: --resume belongs to a3s sessions: a3s sessions --resume <id>'],
      [['--resume', 's1'], 'a3s sessions --resume s1'],
      [['resume', '--last'], "a3s: 'a3s resume' is Codex's spelling; in a3s, a3s sessions --resume <id>"],
    ];
    for (const [args, said] of cases) {
      const dir = tempRepo();
      const r = await runMain(args, { cwd: dir, env: { A3S_MODEL: 'scripted:/nonexistent.json' } });
      expect([r.status, r.stdout], args.join(' ')).toEqual([2, '']);
      expect(r.stderr, args.join(' ')).toContain(said);
      expect(r.stderr, args.join(' ')).toContain('nothing was run');
      expect(r.stderr).not.toContain('"exec ');
      expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(existsSync(join(dir, '.a3s', 'effect-log'))).toBe(false);
    }
  });

  it('a3s commands and an unquoted prompt are read as before', async () => {
    const r = await runMain(['fix', 'the', 'bug'], { cwd: tempRepo() });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('to run a prompt: a3s run "fix the bug"');
  });
});
