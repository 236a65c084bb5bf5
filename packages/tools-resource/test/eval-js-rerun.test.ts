// eval's JavaScript kernel as a notebook is used: a cell run again declares its names again, and
// top-level declarations of plain cells (no top-level await) persist wherever they start.
import { describe, expect, it } from 'vitest';
import { jsKernelPerTest } from './eval-js-harness.js';

const { js } = jsKernelPerTest('a3s-eval-rerun-');

describe('eval: JavaScript cells run again', () => {
  it('EVAL-01: plain cells keep their top-level declarations too, and a cell can be run again (const, let and class declared again)', async () => {
    for (const cell of [
      'await 0\n  const c1 = 3',
      'if (true) {} const d1 = 4; await 0',
      'await 0; { const inner = 1 }\nfunction f() {\nlet z = 1\nreturn z\n}',
      '  const indented = 5\nclass K { m() { const mm = 1; return mm } }',
    ])
      expect((await js(cell)).exitCode, cell).toBe(0);
    expect((await js('f(); [c1, d1, indented, typeof inner, typeof z, typeof mm, new K().m()].join()')).output).toBe(
      "'3,4,5,undefined,undefined,undefined,1'",
    );
    // Running a cell again declares its names again, with or without top-level await.
    const plain = 'const again = 1; let also = 2; class C2 {}';
    for (const cell of [plain, plain, `${plain}; await 0`, `${plain}; await 0`]) {
      const twice = await js(cell);
      expect([twice.exitCode, twice.output], cell).toEqual([0, cell.endsWith('await 0') ? '0' : '']);
    }
    expect((await js('const again = 10; again + also')).output).toBe('12');
  });
});
