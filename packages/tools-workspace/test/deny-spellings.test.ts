// Respellings of `rm` against `deny: ['Bash(rm:*)']`, end to end: a scripted model calls the real
// `bash` tool through the governed kernel on a real LocalWorkspace, and every target file is still
// there afterwards. Everything that is not denied is allowed, so a spelling the judge missed would
// really delete its file.
import { existsSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@a3s-code/core';
import { ScriptedLlmClient } from '@a3s-code/core/testing';
import { describe, expect, it } from 'vitest';
import { LocalWorkspace, workspaceToolPack } from '../src/index.js';

const b64 = (text: string): string => Buffer.from(text).toString('base64');

// `F` is replaced by the spelling's own target file.
const SPELLINGS: readonly ((f: string) => string)[] = [
  (f) => `bash -c "rm ${f}"`,
  (f) => `sh -c 'rm ${f}'`,
  (f) => `/bin/rm ${f}`,
  (f) => `\\rm ${f}`,
  (f) => `'rm' ${f}`,
  (f) => `r''m ${f}`,
  (f) => `env rm ${f}`,
  (f) => `command rm ${f}`,
  (f) => `X=1 rm ${f}`,
  (f) => `R=rm; $R ${f}`,
  (f) => `(rm ${f})`,
  (f) => `{ rm ${f}; }`,
  (f) => `if true; then rm ${f}; fi`,
  (f) => `eval "rm ${f}"`,
  (f) => `echo ${f} | xargs rm`,
  (f) => `(exec rm ${f})`,
  (f) => `time rm ${f}`,
  (f) => `echo ${b64(`rm ${f}`)} | base64 -d | sh`,
  (f) => `nohup rm ${f} &`,
  (f) => `timeout 5 rm ${f}`,
  (f) => `for g in ${f}; do rm $g; done`,
  (f) => `case a in a) rm ${f};; esac`,
  (f) => `bash -lc 'rm ${f}'`,
  (f) => `$'\\x72m' ${f}`,
  (f) => `printf '%s\\0' ${f} | xargs -0 rm`,
  (f) => `f(){ rm ${f}; }; f`,
  (f) => `r\\\nm ${f}`,
  (f) => `true\nrm ${f}`,
  (f) => `find . -name ${f} -exec rm {} \\;`,
  (f) => `cat <<EOF | sh\nrm ${f}\nEOF`,
];

describe('deny rules hold end to end through the kernel and a real workspace', () => {
  it('PERM-02: every respelling of rm is denied by Bash(rm:*) and its file survives', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'a3s-deny-spellings-')));
    const files = SPELLINGS.map((_, i) => `victim${i}.txt`);
    for (const f of files) writeFileSync(join(dir, f), 'keep');
    const calls = SPELLINGS.map((spell, i) => ({ id: `c${i}`, name: 'bash', args: { command: spell(files[i]!) } }));
    // One run per spelling, so a spelling that got through cannot stop the others from running.
    const model = new ScriptedLlmClient([
      ...calls.flatMap((call) => [{ tool_calls: [call] }, { text: 'done' }]),
      { tool_calls: [{ id: 'control', name: 'bash', args: { command: 'echo ran > control.txt' } }] },
      { text: 'done' },
    ]);
    const agent = await Agent.create({
      model,
      tools: [workspaceToolPack],
      workspace: new LocalWorkspace({ root: dir }),
      permissions: { deny: ['Bash(rm:*)'], defaultDecision: 'allow' },
    });
    const session = await agent.session(dir, { gate: { continuation: { enabled: false } } });
    try {
      // A run that deleted a file ends unverified (COMPLETION_INCOMPLETE): the check below reports it.
      for (let i = 0; i <= calls.length; i++) await session.send('clean up').catch(() => undefined);
      const results = session.store.log.facts
        .filter((f) => f.type === 'tool.result')
        .map((f) => f.payload as { call_id?: string; id?: string; ok: boolean; output: string });
      const survived = files.filter((f) => existsSync(join(dir, f)));
      expect(survived).toEqual(files);
      expect(results.filter((r) => /Permission denied: Bash\(rm:\*\)/.test(r.output))).toHaveLength(SPELLINGS.length);
      // The control command is allowed and really ran: bash works in this workspace.
      expect(existsSync(join(dir, 'control.txt'))).toBe(true);
    } finally {
      await session.close();
    }
  });
});
