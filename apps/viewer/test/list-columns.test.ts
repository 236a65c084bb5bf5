import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLog } from '@a3s-code/effect';
import { describe, expect, it } from 'vitest';
import { listColumns } from '../src/list-columns.js';
import { buildModel } from '../src/model/build.js';
import { KINDS, STATUSES } from '../src/protocol.js';
import { hostileLog } from './hostile-log.js';

const dir = join(import.meta.dirname, '..', '..', '..', 'packages', 'effect', 'fixtures', 'v1');
const utf8 = new TextDecoder();

describe('the list columns sent to the page', () => {
  const logs = [
    ...readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => readFileSync(join(dir, f), 'utf8')),
    hostileLog(),
  ];

  it.each(logs.map((text, i) => [i, text] as const))(
    'log %i: every title comes back exactly from its byte range, with its kind and status',
    (_, text) => {
      const model = buildModel(parseLog(text).facts, {});
      const list = listColumns(model);
      expect(list.count).toBe(model.rows.length);
      expect(list.offsets[list.count]).toBe(list.titles.length);
      model.rows.forEach((r, i) => {
        const title = utf8.decode(list.titles.subarray(list.offsets[i]!, list.offsets[i + 1]!));
        // A lone surrogate has no UTF-8 form: it comes back as U+FFFD, as any encoder writes it.
        expect(title).toBe(
          new TextDecoder().decode(new TextEncoder().encode(r.ignored ? `${r.title} [ignored by the fold]` : r.title)),
        );
        expect(KINDS[list.kind[i]!]).toBe(r.kind);
        expect(STATUSES[list.status[i]!]).toBe(r.status);
      });
    },
  );

  it('titles beyond ASCII (accents, CJK, emoji, a lone surrogate) keep their own ranges', () => {
    const texts = ['café', '修复边界', 'ok 👍🏽 done', 'lone \ud800 half', 'plain'];
    const facts = texts.map((text, i) => ({
      seq: i + 1,
      type: 'user.message',
      key: `user:${i + 1}`,
      cause: null,
      payload: { text, source: 'user', at_ms: 1_764_460_800_000 + i },
    }));
    const model = buildModel(parseLog(facts.map((f) => JSON.stringify(f)).join('\n')).facts, {});
    const list = listColumns(model);
    const titles = model.rows.map((_, i) => utf8.decode(list.titles.subarray(list.offsets[i]!, list.offsets[i + 1]!)));
    texts.forEach((t, i) => {
      expect(titles[i]).toContain(t.replace('\ud800', '\ufffd'));
    });
  });
});
