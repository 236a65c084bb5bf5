// Where a program's script may come from: a workspace .js or .mjs file, never one in the
// runtime's own state folders under `.a3s/` (fact logs, workflow runs, attachments).
import { describe, expect, it } from 'vitest';
import { checkScriptPath } from './program-source.js';

describe('checkScriptPath', () => {
  it('takes a workspace-relative script, normalised', () => {
    expect(checkScriptPath('./scripts//a.mjs')).toBe('scripts/a.mjs');
    expect(checkScriptPath('.a3s/skills/s/run.js')).toBe('.a3s/skills/s/run.js');
  });

  it("refuses a script in the runtime's state, in any spelling", () => {
    for (const path of ['.a3s/artifacts/x.js', './.a3s/workflows/wf.js', '.A3S/Effect-Log/x.mjs'])
      expect(() => checkScriptPath(path), path).toThrow(/must be outside the runtime's own state/);
  });
});
