// What a cell writes straight to file descriptor 2 (os.write, fs.writeSync, a child process) stays
// with that cell: it never spills into the next cell's output. Real kernels, and the mark parser.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EvalResource, openEvalResource } from '../src/eval.js';
import { CELL_END_PREFIX, CellEndMarks } from '../src/eval/cell-end-marks.js';

let dir: string;
let kernels: EvalResource;
const cell = { bridge: async () => ({ ok: true, output: '' }) };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-eval-stderr-'));
  kernels = await openEvalResource({ inactivityMs: 30_000 });
});
afterEach(async () => {
  await kernels.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('eval: direct writes to stderr', () => {
  it('a Python cell that writes to fd 2 (itself and through a child) gets it; the next cell gets only its own', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await kernels.run(
        'python',
        `import os, subprocess\nos.write(2, b'raw-${i} ')\nsubprocess.run('echo child-${i} >&2', shell=True)\n${i}`,
        dir,
        cell,
      );
      expect(r.output).toBe(`raw-${i} child-${i}\n`);
      const next = await kernels.run('python', `print('next-${i}')`, dir, cell);
      expect(next.output).toBe(`next-${i}\n`);
    }
  });

  it('a JavaScript cell that writes to fd 2 gets it; the next cell gets only its own', async () => {
    const r = await kernels.run('javascript', "require('node:fs').writeSync(2, 'raw-js'); 1", dir, cell);
    expect(r.output).toBe('raw-js');
    expect((await kernels.run('javascript', "console.log('next')", dir, cell)).output).toBe('next\n');
  });

  it('a forged end mark changes nothing, and a cell that closes fd 2 still ends and the kernel goes on', async () => {
    const forged = await kernels.run(
      'python',
      // The mark's own bytes (\x1e\x1f, then the words), written by the cell.
      "import os\nos.write(2, b'\\x1e\\x1fa3s-cell-end 999\\n')\n5",
      dir,
      cell,
    );
    expect(forged.echo).toBe('5');
    expect(forged.output).toBe('');
    const closed = await kernels.run('python', 'import os\nos.close(2)\n6', dir, cell);
    expect(closed.echo).toBe('6');
    expect((await kernels.run('python', "print('after')", dir, cell)).output).toBe('after\n');
  });
});

describe('CellEndMarks', () => {
  it('cuts marks out of the stream wherever the chunks split them, and holds back only a possible mark', () => {
    const marks = new CellEndMarks();
    const got: string[] = [];
    const ended: string[] = [];
    const text = `a${CELL_END_PREFIX}7\nb\x1eplain\x1e\n${CELL_END_PREFIX}8\nc`;
    for (let cut = 0; cut <= text.length; cut++) {
      got.length = 0;
      ended.length = 0;
      for (const id of ['7', '8']) marks.after(id, 10_000, () => ended.push(id));
      marks.push(text.slice(0, cut), (t) => got.push(t));
      marks.push(text.slice(cut), (t) => got.push(t));
      marks.flush((t) => got.push(t));
      expect(got.join(''), `cut at ${cut}`).toBe('ab\x1eplain\x1e\nc');
      expect(ended).toEqual(['7', '8']);
    }
  });

  it('a mark that comes before anyone waits is kept for the waiter; a missing mark times out', async () => {
    const marks = new CellEndMarks();
    marks.push(`${CELL_END_PREFIX}1\n`, () => undefined);
    let early = false;
    marks.after('1', 10_000, () => (early = true));
    expect(early).toBe(true);
    const t0 = Date.now();
    await new Promise<void>((r) => marks.after('2', 30, r));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
  });
});
