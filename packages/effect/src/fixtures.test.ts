import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptedExecutor } from '../test/kit.js';
import { advance } from './advance.js';
import { FactLog } from './fact-log.js';
import { parseLog } from './fact.js';
import { fold } from './folder.js';
import { createHarness } from './harness.js';
import { PHASES } from './state.js';
import { summarizeLog } from './summary.js';

// The durable-format corpus: every log written by format version 1 must keep folding to the
// same state. Regenerate only deliberately (`pnpm --filter @a3s-code/effect fixtures:write`).
const dir = join(import.meta.dirname, '..', 'fixtures', 'v1');
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.jsonl'))
  .map((f) => f.slice(0, -'.jsonl'.length))
  .sort();

const load = (name: string) => ({
  text: readFileSync(join(dir, `${name}.jsonl`), 'utf8'),
  expected: JSON.parse(readFileSync(join(dir, `${name}.expected.json`), 'utf8')),
});

describe('fixtures/v1 corpus', () => {
  it('has a corpus, with an expected fold for every log', () => {
    expect(names.length).toBeGreaterThanOrEqual(12);
    for (const name of names) expect(() => load(name)).not.toThrow();
  });

  it.each(names)('%s folds to its recorded state, summary and digest', (name) => {
    const { text, expected } = load(name);
    const parsed = parseLog(text);
    const recipe = expected.recipe ?? undefined;
    expect(JSON.parse(JSON.stringify(fold(parsed.facts, recipe)))).toEqual(expected.state);
    expect(JSON.parse(JSON.stringify(summarizeLog(parsed.facts, recipe)))).toEqual(expected.summary);
    expect(new FactLog(parsed.facts).digest()).toEqual(expected.digest);
    if (expected.torn)
      expect(parsed.torn).toMatchObject({ line: expected.torn.line, validLength: expected.torn.validLength });
    else expect(parsed.torn).toBeUndefined();
  });

  it('covers every phase of the fold', () => {
    const seen = new Set<string>();
    for (const name of names) for (const t of load(name).expected.summary.phase_timeline) seen.add(t.phase);
    expect([...seen].sort()).toEqual([...PHASES].sort());
  });

  it('RES-04 on the crash fixtures: the missing tool runs exactly once, then the log is quiescent', async () => {
    for (const name of ['crash-mid-tool', 'torn-tail']) {
      const log = new FactLog(parseLog(load(name).text).facts);
      const ex = scriptedExecutor([{ kind: 'text', text: 'Tests pass.' }]);
      await advance({ log, harness: createHarness(), execute: ex.execute });
      await advance({ log, harness: createHarness(), execute: ex.execute });
      expect(ex.ran).toEqual(['tool:1:0:c1', 'infer:1:1']);
    }
  });
});
