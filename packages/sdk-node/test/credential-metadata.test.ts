// A model key the host holds is redacted wherever a tool's result goes, not only from its output:
// a language server's hover of a file holding the key puts the raw text in the result's metadata,
// which the events and the fact log carry. Real pyright, a real session, the log read from disk.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, expectNoLeak, results, run, workspace } from './read-deny-kit.js';

const VALUE = 'sk-proj-metadata0123456789abcdef';
const saved = process.env.OPENAI_API_KEY;
afterEach(() => {
  if (saved === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = saved;
});

describe("a held key in a result's metadata", () => {
  it('SURF-10: a hover quoting the key shows it redacted in the output, the metadata, the events and the fact log', async () => {
    process.env.OPENAI_API_KEY = VALUE;
    const dir = workspace();
    writeFileSync(join(dir, 'pyproject.toml'), '[project]\nname = "probe"\n');
    writeFileSync(join(dir, 'k.py'), `KEY = "${VALUE}"\n`);
    const { session, events } = await run(dir, [
      call('h', 'lsp', { operation: 'hover', file: 'k.py', line: 1, symbol: 'KEY' }),
    ]);
    const hover = results(session).get('h');
    expect(hover?.output).toContain('[REDACTED:OPENAI_API_KEY]');
    expect(hover?.metadata).toMatchObject({ hover: expect.stringContaining('[REDACTED:OPENAI_API_KEY]') });
    await session.close();
    expectNoLeak(dir, session, events, [`OPENAI_API_KEY=${VALUE}`]);
    for (const e of events) expect(e).not.toContain(VALUE);
  }, 30_000);
});
