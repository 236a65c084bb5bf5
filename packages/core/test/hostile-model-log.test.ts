// A model whose tool calls are hostile to the fact log: the run goes on, and the log on disk reads
// back (on reopen) exactly as the session held it in memory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { effectLogPath, FactLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { closeAfterEach, open, workspace } from './session-kit.js';

const { track } = closeAfterEach();

function nested(levels: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

const CASES: [string, Record<string, unknown>, RegExp | null][] = [
  ['separators, a lone surrogate, NUL and CR', { text: 'a\u2028b\u2029c\ud800d\u0000e\r\nf' }, null],
  [
    '__proto__ and constructor keys',
    JSON.parse('{"text":"x","__proto__":{"p":1},"constructor":{"prototype":1}}'),
    /unrecognized|__proto__|constructor/i,
  ],
  ['a -0', { text: 'x', times: -0 }, /times/],
  ['10k levels of nesting', { text: nested(10_000) }, /nested deeper than 200 levels/],
];

describe('a model hostile to the fact log', () => {
  for (const [name, args, refused] of CASES) {
    it(`tool arguments with ${name}: the run completes and the reopened log equals the live one`, async () => {
      const ws = workspace();
      const first = await open(
        [{ tool_calls: [{ id: 'c1', name: 'echo', args }] }, { text: 'done' }],
        { sessionId: 's' },
        ws.dir,
      );
      expect(await first.session.send('go')).toMatchObject({ status: 'completed', text: 'done' });
      const result = first.session.store.log.facts.find((f) => f.type === 'tool.result')!.payload as {
        ok: boolean;
        output: string;
      };
      if (refused === null) expect(result.ok).toBe(true);
      else expect(result).toMatchObject({ ok: false, output: expect.stringMatching(refused) });
      const live = first.session.store.log.facts;
      expect(FactLog.parse(readFileSync(join(ws.dir, effectLogPath('s')), 'utf8')).log.facts).toEqual(live);
      await first.session.close();
      const again = await track(open([], { sessionId: 's' }, ws.dir));
      expect(again.session.store.log.facts).toEqual(live);
    });
  }
});
