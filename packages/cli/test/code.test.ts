// `a3s code` driven through a pseudo-terminal: type a prompt, answer an ask_user card, approve
// confirmations (yes, always), read the verified result, interrupt a slow turn with Ctrl-C, then
// leave with Ctrl-C twice.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { A3S, FIX_TURNS, loggedPrompts, promptsLogged, scriptFile, tempRepo } from './kit.js';
import { startPty } from './pty.js';

describe('a3s code (pseudo-terminal)', () => {
  it('prompt, question card, confirmations, result, Ctrl-C interrupt, Ctrl-C twice exits', async () => {
    const dir = tempRepo();
    const script = scriptFile([
      {
        question: {
          question: 'Which bug first?',
          options: [{ label: 'off-by-one', description: 'range end' }, { label: 'naming' }],
        },
      },
      ...FIX_TURNS,
      { delay_ms: 10_000, text: 'never shown' },
    ]);
    const env = { ...process.env };
    delete env.A3S_MODEL;
    const pty = startPty([process.execPath, A3S, 'code', '--model', `scripted:${script}`, '--cwd', dir], env);
    try {
      let at = await pty.waitFor('› ');
      pty.type('/help\r');
      at = await pty.waitFor('/compact', at);
      pty.type('fix the failing test\r');
      at = await pty.waitFor('answer>', at);
      expect(pty.text()).toMatch(/\? Which bug first\?\n {2}1\. off-by-one — range end\n {2}2\. naming/);
      pty.type('1\r');
      at = await pty.waitFor('allow? [y/n/a]', at);
      expect(pty.text().slice(at - 200)).toMatch(/\? allow edit src\/range\.js/);
      pty.type('y\r');
      at = await pty.waitFor(/\? allow verify range fix/, at);
      await pty.waitFor('allow? [y/n/a]', at);
      // The card shows the commands the approval covers.
      expect(pty.text().slice(at)).toMatch(/ {2}runs\r?\n {2}│ node --test\r?\n/);
      pty.type('a\r');
      // The commands of the verify just approved run without a second question.
      at = await pty.waitFor(/completed \(verified\) · 2 tool call\(s\)/, at);
      expect(pty.text()).not.toMatch(/\? allow bash node --test/);
      expect(pty.text()).toMatch(/● edit src\/range\.js\n {2}✓ ok/);
      expect(readFileSync(join(dir, 'src', 'range.js'), 'utf8')).toContain('i <= end');

      at = await pty.waitFor('› ', at);
      const prompts = loggedPrompts(dir);
      pty.type('and now something slow\r');
      await promptsLogged(dir, prompts + 1);
      pty.type('\u0003');
      at = await pty.waitFor('interrupting', at);
      at = await pty.waitFor(/cancelled · 0 tool call\(s\)/, at);
      await pty.waitFor('› ', at);
      pty.type('\u0003');
      await new Promise((r) => setTimeout(r, 100));
      pty.type('\u0003');
      expect(await pty.exited).toBe(130);
    } finally {
      pty.child.kill();
    }
  }, 30_000);
});
