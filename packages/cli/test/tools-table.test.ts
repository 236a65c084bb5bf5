// `a3s tools` prints a table whose columns line up whatever the longest cell is.
import { describe, expect, it } from 'vitest';
import { runMain, scriptFile, tempRepo } from './kit.js';

describe('a3s tools', () => {
  it('each column starts where its header does, and no cell runs into the next', async () => {
    const dir = tempRepo();
    const r = await runMain(['tools', '--model', `scripted:${scriptFile([])}`, '--cwd', dir]);
    expect(r.status, r.stderr).toBe(0);
    const [header, ...rest] = r.stdout.trimEnd().split('\n');
    const rows = rest.filter((l) => !l.includes('tool(s) on the surface'));
    expect(rows.length).toBeGreaterThan(5);
    const starts = ['tier', 'capabilities', 'requires'].map((h) => header!.indexOf(h));
    for (const row of rows) {
      for (const at of starts) {
        expect(row[at - 1], row).toBe(' ');
        expect(row[at], row).not.toBe(' ');
      }
    }
  });
});
