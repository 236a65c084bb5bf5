// eval against cells that send the host what it should not keep: forged or oversized images, huge
// figures, text that is not well-formed, bytes, and %pip into the machine's Python.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type EvalResource, openEvalResource } from '../src/eval.js';
import { MAX_CELL_IMAGE_BYTES } from '../src/eval/cell-images.js';
import { CappedOutput, KERNEL_FRAME, type KernelMessage, KernelReader } from '../src/eval/kernel-protocol.js';

const MPL = spawnSync('/usr/bin/python3', ['-c', 'import matplotlib'], { encoding: 'utf8' }).status === 0;
const SYSTEM_PY = spawnSync('/usr/bin/python3', ['-c', 'import sys; print(sys.prefix == sys.base_prefix)'], {
  encoding: 'utf8',
}).stdout.includes('True');

let dir: string;
let kernels: EvalResource;
const cell = { bridge: async () => ({ ok: true, output: '' }) };
/** A Python cell line that sends a protocol message as the kernel would (the cell can reach its channel). */
const forge = (msg: string) => `import __main__, base64\n__main__._send(${msg})`;
const PNG = String.raw`b'\x89PNG\r\n\x1a\n'`;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-eval-out-'));
  kernels = await openEvalResource({ inactivityMs: 60_000 });
});
afterEach(async () => {
  await kernels.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('eval: what a cell sends back', () => {
  it('EVAL-04: an image the cell forges is kept only as an allowed image type whose bytes match it; each dropped one is named', async () => {
    const r = await kernels.run(
      'python',
      [
        forge(`{'type': 'image', 'mime': 'text/html', 'data': base64.b64encode(b'<script>1</script>').decode()}`),
        forge(`{'type': 'image', 'mime': 'image/png', 'data': base64.b64encode(b'<svg/>').decode()}`),
        forge(`{'type': 'image', 'mime': 'image/png', 'data': 'not base64!'}`),
        forge(`{'type': 'image', 'mime': 'image/png', 'data': base64.b64encode(${PNG} + b'rest').decode()}`),
        '1',
      ].join('\n'),
      dir,
      cell,
    );
    expect(r.images).toEqual([
      { mime: 'image/png', data: Buffer.from('\x89PNG\r\n\x1a\nrest', 'latin1').toString('base64') },
    ]);
    expect(r.output).toContain('[image 1 dropped: its media type "text/html" is not allowed');
    expect(r.output).toContain('[image 2 dropped: its data does not start with the image/png signature]');
    expect(r.output).toContain('[image 3 dropped: its data is not base64]');
    expect(r.echo).toBe('1');
  });

  it("EVAL-04: a cell's images are capped in total size; the rest are dropped with a note", async () => {
    const big = `base64.b64encode(${PNG} + bytes(${Math.floor(MAX_CELL_IMAGE_BYTES / 3)})).decode()`;
    const r = await kernels.run(
      'python',
      `import __main__, base64\nd = ${big}\nfor _ in range(5): __main__._send({'type': 'image', 'mime': 'image/png', 'data': d})\n2`,
      dir,
      cell,
    );
    expect(r.images).toHaveLength(2);
    expect(r.output.match(/dropped: a cell's images hold at most 32 MB together/g)).toHaveLength(3);
    expect(r.echo).toBe('2');
  });

  it.skipIf(!MPL)(
    'EVAL-04: a figure too large to render is skipped with a note; the others still come back',
    async () => {
      const r = await kernels.run(
        'python',
        'import matplotlib.pyplot as plt\nplt.figure(figsize=(300, 300), dpi=100); plt.plot([1, 2])\nplt.figure(); plt.plot([2, 1])\n3',
        dir,
        cell,
      );
      expect(r.output).toContain('[figure 1 not shown: 30000x30000 pixels is over 40000000 pixels');
      expect(r.images.map((i) => i.mime)).toEqual(['image/png']);
      expect(r.echo).toBe('3');
    },
  );

  it('a huge message is read in time proportional to its size (the host is not held up)', () => {
    const got: KernelMessage[] = [];
    const reader = new KernelReader((m) => got.push(m));
    const data = 'A'.repeat(32 * 2 ** 20);
    const line = `${KERNEL_FRAME}{"type":"image","mime":"image/png","data":"${data}"}\n`;
    const started = Date.now();
    for (let i = 0; i < line.length; i += 65_536) reader.push(line.slice(i, i + 65_536));
    // Reading it took minutes when each chunk rescanned all that was held (about 40 s for this one).
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(got).toHaveLength(1);
    expect(String(got[0]?.data).length).toBe(data.length);
    // A frame split over single characters, after text on its line.
    got.length = 0;
    for (const ch of `pre${KERNEL_FRAME}{"type":"done","id":1}\n`) reader.push(ch);
    expect(got).toEqual([
      { type: 'stream', stream: 'stdout', text: 'pre' },
      { type: 'done', id: 1 },
    ]);
  }, 60_000);

  it('EVAL-04: output is well-formed text: lone surrogates a cell prints, or a cut leaves, become U+FFFD; sys.stdout.buffer takes bytes', async () => {
    const py = await kernels.run(
      'python',
      String.raw`import sys
print('a\udcffb\ud83d')
sys.stdout.buffer.write(b'\xff ok \xe2\x82'); sys.stdout.buffer.write(b'\xac\n')
raise ValueError('\udc80')`,
      dir,
      cell,
    );
    expect(py.output).toBe('a\uFFFDb\uFFFD\n\uFFFD ok €\n');
    expect(py.error).toContain('ValueError: \uFFFD');
    const js = await kernels.run('javascript', "console.log('x\\ud800y'); throw new Error('e\\udfff')", dir, cell);
    expect(js.output).toBe('x\uFFFDy\n');
    expect(js.error).toContain('e\uFFFD');
    const capped = new CappedOutput(10);
    capped.push('😀'.repeat(20));
    expect(capped.text()).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });

  it.skipIf(!SYSTEM_PY)(
    "%pip install on the host outside a virtual environment is refused (it would change the machine's Python)",
    async () => {
      const r = await kernels.run('python', '%pip install --no-index a3s-nothing', dir, cell);
      expect(r.ok).toBe(false);
      expect(r.error).toContain('%pip install refused');
      expect(r.error).toContain('python3 -m venv .venv');
      expect((await kernels.run('python', '%pip --version', dir, cell)).output).toMatch(/^pip /);
    },
  );
});
