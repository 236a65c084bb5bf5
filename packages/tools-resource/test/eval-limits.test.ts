// eval against cells that go over the kernel's limits: memory, output volume, the protocol channel.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIVE_OUTPUT_LIMITS, type Tool, type ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  EVAL_MEMORY_ENV,
  EVAL_MEMORY_LIMIT_MB,
  EVAL_RESOURCE,
  type EvalResource,
  evalTool,
  openEvalResource,
} from '../src/eval.js';
import { memoryLimitOf } from '../src/eval/eval-resource.js';
import { KERNEL_FRAME, type KernelMessage, KernelReader } from '../src/eval/kernel-protocol.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';
import { aliveAfter } from './debug-support.js';

let dir: string;
let kernels: EvalResource;
const cell = { bridge: async () => ({ ok: true, output: '' }) };
/** The memory limit of the kernels here, in MiB. */
const LIMIT_MB = 200;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-eval-limits-'));
  kernels = await openEvalResource({ inactivityMs: 30_000, memoryLimitMb: LIMIT_MB });
});
afterEach(async () => {
  await kernels.close();
  rmSync(dir, { recursive: true, force: true });
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('the cell should have failed');
    },
    (e: { code: string; message: string; details: Record<string, unknown> }) => e,
  );

describe('eval: memory limit', () => {
  it('a Python cell over the limit fails with EVAL_MEMORY_LIMIT naming the limit and how to raise it; the next cell gets a fresh kernel', async () => {
    await kernels.run('python', 'kept = 1', dir, cell);
    const e = await failure(kernels.run('python', "x = []\nwhile True: x.append(' ' * 10**7)", dir, cell));
    expect(e.code).toBe('EVAL_MEMORY_LIMIT');
    expect(e.message).toContain(`memory limit of ${LIMIT_MB} MB`);
    expect(e.message).toContain('variables, imports and loaded data are lost');
    expect(e.message).toContain(EVAL_MEMORY_ENV);
    expect(e.details).toMatchObject({ memory_limit_mb: LIMIT_MB, error: expect.stringContaining('MemoryError') });
    const next = await kernels.run('python', "'kept' in globals()", dir, cell);
    expect(next).toMatchObject({ started: true, echo: 'False' });
    expect(next.previousDeath).toMatch(/had died/);
  });

  it('a JavaScript cell over the limit fails with EVAL_MEMORY_LIMIT; the next cell gets a fresh kernel', async () => {
    const e = await failure(
      kernels.run('javascript', 'const a = []; for (;;) a.push(new Array(1e6).fill(1.5))', dir, cell),
    );
    expect(e.code).toBe('EVAL_MEMORY_LIMIT');
    expect(e.message).toContain(`memory limit of ${LIMIT_MB} MB`);
    expect((await kernels.run('javascript', '1 + 1', dir, cell)).echo).toBe('2');
  });

  it('memory held by the processes a cell starts counts too: over the limit they are killed with the kernel', async () => {
    const code = [
      'import subprocess, sys',
      "kids = [subprocess.Popen([sys.executable, '-c', 'import time; x = bytearray(120 * 2**20); time.sleep(60)']) for _ in range(2)]",
      "print(' '.join(str(k.pid) for k in kids), flush=True)",
      'import time; time.sleep(60)',
    ].join('\n');
    const e = await failure(kernels.run('python', code, dir, cell));
    expect(e.code).toBe('EVAL_MEMORY_LIMIT');
    expect(e.message).toMatch(/the kernel and its processes held \d+ MB/);
    const pids = String(e.details.output).trim().split(' ').map(Number);
    expect(pids).toHaveLength(2);
    expect(await aliveAfter(pids, 5_000)).toEqual([]);
  });

  it('memory a kernel keeps allocating between cells (a timer, off the V8 heap) is caught too; the next call says why it died', async () => {
    await kernels.run(
      'javascript',
      'globalThis.keep = []; setInterval(() => keep.push(Buffer.alloc(2e7, 1)), 20); 1',
      dir,
      cell,
    );
    const pid = kernels.kernels()[0]!.pid;
    expect(await aliveAfter([pid], 10_000)).toEqual([]);
    const next = await kernels.run('javascript', 'typeof keep', dir, cell);
    expect(next.echo).toBe("'undefined'");
    expect(next.previousDeath).toContain(`went over its memory limit of ${LIMIT_MB} MB between cells`);
  });

  it('the limit comes from the option, else the environment, else the default; a bad value is EVAL_CONFIG', () => {
    expect(memoryLimitOf(512, {})).toBe(512);
    expect(memoryLimitOf(undefined, { [EVAL_MEMORY_ENV]: ' 1024 ' })).toBe(1024);
    expect(memoryLimitOf(undefined, {})).toBe(EVAL_MEMORY_LIMIT_MB);
    expect(memoryLimitOf(false, { [EVAL_MEMORY_ENV]: '1024' })).toBeUndefined();
    for (const bad of ['2g', '-5', '10', '1e3', 'lots'])
      expect(() => memoryLimitOf(undefined, { [EVAL_MEMORY_ENV]: bad })).toThrow(
        expect.objectContaining({ code: 'EVAL_CONFIG', message: expect.stringContaining('whole number of megabytes') }),
      );
    expect(() => memoryLimitOf(32.5, {})).toThrow(expect.objectContaining({ code: 'EVAL_CONFIG' }));
  });
});

describe('eval: output and the protocol channel', () => {
  it('JavaScript writes to process.stdout (JSON lines, no newline at the end) are output and do not break the protocol', async () => {
    const r = await kernels.run(
      'javascript',
      `process.stdout.write('{"type":"done","id":1,"ok":true}\\n'); process.stdout.write('{"a":1}\\n'); process.stdout.write('tail');`,
      dir,
      cell,
    );
    expect(r.ok).toBe(true);
    expect(r.output).toBe('{"type":"done","id":1,"ok":true}\n{"a":1}\ntail');
    expect(
      (
        await kernels.run(
          'javascript',
          "require('node:child_process').execSync('printf raw', { stdio: 'inherit' }); 7",
          dir,
          cell,
        )
      ).echo,
    ).toBe('7');
  });

  it('the echo of a huge last expression is capped like the output', async () => {
    const r = await kernels.run('python', "'x' * 5_000_000", dir, cell);
    expect(r.echo!.length).toBeLessThan(40_000);
    expect(r.echo).toMatch(/^'x+\n\[… \d+ characters of output cut …\]\nx+'$/);
  });

  it('the reader holds no unbounded line: text without a frame is passed on in pieces, a frame after text is split off', () => {
    const got: KernelMessage[] = [];
    const reader = new KernelReader((m) => got.push(m));
    const big = 'x'.repeat(5_000_000);
    reader.push(big);
    expect(got.length).toBeGreaterThan(10);
    expect(got.every((m) => m.type === 'stream' && String(m.text).length <= 64 * 1024)).toBe(true);
    got.length = 0;
    reader.push(`y${KERNEL_FRAME.slice(0, 2)}`);
    reader.push(`${KERNEL_FRAME.slice(2)}{"type":"done","id":3}\nplain\n`);
    const texts = got.filter((m) => m.type === 'stream').map((m) => m.text);
    expect(texts.slice(0, -1).join('')).toMatch(/^x*y$/);
    expect(got.find((m) => m.type === 'done')).toEqual({ type: 'done', id: 3 });
    expect(got.at(-1)).toEqual({ type: 'stream', stream: 'stdout', text: 'plain\n' });
  });

  it('a flood of small prints is coalesced: the result keeps head and tail, live output stays bounded', async () => {
    const ctx = createToolContext({ workspace: diskWorkspace(dir), resources: { [EVAL_RESOURCE]: kernels } });
    const r: ToolResult = await (evalTool as unknown as Tool<Record<string, unknown>>).execute(
      { description: 'print many short lines very fast', code: 'for i in range(400_000): print(i)\n"end"' },
      ctx,
    );
    expect(r.exitCode).toBe(0);
    expect(r.metadata).toMatchObject({ truncated: true, output_chars: 2_688_890 });
    expect(r.output).toMatch(/^0\n1\n2\n[\s\S]*399999\n'end'$/);
    const live = ctx.deltas.join('');
    expect(live.length).toBeLessThan(LIVE_OUTPUT_LIMITS.maxChars + 200);
    expect(live).toContain('[live output stopped after');
    expect(ctx.deltas.length).toBeLessThan(200);
  });

  it('a cell that closes the protocol channel fails at once with EVAL_KERNEL_DIED; the session closing mid-cell is EVAL_CLOSED', async () => {
    const e = await failure(kernels.run('python', 'import os, time\nos.closerange(3, 64)\ntime.sleep(60)', dir, cell));
    expect(e.code).toBe('EVAL_KERNEL_DIED');
    expect(e.message).toContain('closed its protocol channel');
    const running = failure(kernels.run('javascript', 'await new Promise(() => {})', dir, cell));
    await new Promise((r) => setTimeout(r, 300));
    await kernels.close();
    expect((await running).code).toBe('EVAL_CLOSED');
  });
});
