// eval in the conversation's isolation sandbox: a real one made with `unshare --net` (a network
// namespace with only a loopback device), found by the host's lookup; on the host when the lookup
// finds none; and never started by eval.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScopedInvoker, Tool, ToolResult } from '@a3s-code/core';
import { createToolContext } from '@a3s-code/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  EVAL_RESOURCE,
  type EvalResource,
  type EvalSandbox,
  type SandboxLookupContext,
  evalTool,
  evalToolPackWith,
  openEvalResource,
} from '../src/eval.js';
import { diskWorkspace } from '../src/test-support/disk-workspace.js';

const UNSHARE = spawnSync('unshare', ['--net', 'true']).status === 0;
const PYTHON = spawnSync('python3', ['--version']).status === 0;

/** A sandbox without network: the kernel runs under `unshare --net` (its stdio stays ours). */
const netless: EvalSandbox = {
  name: 'netns-test',
  wrap: (k) => ({ command: 'unshare', args: ['--net', '--', k.command, ...k.args] }),
};

/** The conversation's sandbox manager of a host: eval may only ask it what is running. */
class Sandboxes {
  running: EvalSandbox | undefined;
  lookups: SandboxLookupContext[] = [];
  starts = 0;
  current(context: SandboxLookupContext): EvalSandbox | undefined {
    this.lookups.push(context);
    return this.running;
  }
  start(sandbox: EvalSandbox): void {
    this.starts++;
    this.running = sandbox;
  }
}

let dir: string;
let kernels: EvalResource;
let boxes: Sandboxes;

const invoker: ScopedInvoker = {
  invoke: async (name, args) => ({
    id: 'n-1',
    name,
    source: 'nested',
    ok: true,
    output: `ran ${name} ${JSON.stringify(args)}`,
    exitCode: 0,
    metadata: {},
    durationMs: 0,
  }),
  toolNames: () => ['echo'],
  capabilitiesOf: () => undefined,
};
const run = (code: string, language = 'python'): Promise<ToolResult> =>
  (evalTool as unknown as Tool<Record<string, unknown>>).execute(
    { code, language, description: 'a cell run by the sandbox tests' },
    createToolContext({ workspace: diskWorkspace(dir), resources: { [EVAL_RESOURCE]: kernels }, invoker }),
  );
const INTERFACES = 'import socket\nsorted(n for _, n in socket.if_nameindex())';

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a3s-eval-box-'));
  boxes = new Sandboxes();
  kernels = await openEvalResource({ sessionId: 'conv-7', sandbox: (c) => boxes.current(c) });
});
afterEach(async () => {
  await kernels.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!UNSHARE || !PYTHON)('eval in the conversation sandbox', () => {
  it('EVAL-10: the kernel runs inside the sandbox the lookup finds; the tool bridge still works there', async () => {
    boxes.start(netless);
    const r = await run(`${INTERFACES}`);
    expect(r.exitCode).toBe(0);
    expect(r.metadata).toMatchObject({ runs_in: 'sandbox netns-test', interpreter: 'python3' });
    expect(r.output).toBe("['lo']");
    const bridged = await run('print(tool("echo", {"x": 1}))');
    expect(bridged.output).toBe('ran echo {"x":1}');
    expect(bridged.metadata).toMatchObject({ runs_in: 'sandbox netns-test', kernel_started: false });
    // Node lists interfaces that have an address: none in a fresh network namespace (lo is down).
    const js = await run('Object.keys(require("node:os").networkInterfaces()).length', 'javascript');
    expect(js.metadata).toMatchObject({ runs_in: 'sandbox netns-test', interpreter: 'node' });
    expect(js.output).toBe('0');
  });

  it('EVAL-10: without a sandbox the kernel runs on the host, and eval never starts one', async () => {
    const r = await run(INTERFACES);
    expect(r.metadata).toMatchObject({ runs_in: 'host' });
    expect(r.output).not.toBe("['lo']");
    expect(boxes.starts).toBe(0);
    expect(boxes.running).toBeUndefined();
    expect(boxes.lookups).toEqual([{ sessionId: 'conv-7', cwd: dir }]);
  });

  it('EVAL-10: a sandbox that appears later takes the next cell; the move is reported', async () => {
    expect((await run('x = 41\nx + 1')).metadata).toMatchObject({ runs_in: 'host' });
    boxes.start(netless);
    const moved = await run(`${INTERFACES}`);
    expect(moved.output).toMatch(
      /^\[the python kernel moved from the host to the sandbox netns-test; a fresh one was started and earlier state is lost\]\n\['lo'\]$/,
    );
    expect((await run('x')).output).toMatch(/NameError/);
    expect(boxes.starts).toBe(1);
  });

  it('EVAL-10: a sandbox that cannot run the kernel fails the call naming the sandbox', async () => {
    boxes.start({ name: 'broken', wrap: (k) => ({ command: join(dir, 'no-such-runner'), args: [k.command] }) });
    const r = await run('1');
    expect(r.exitCode).toBe(1);
    expect(r.output).toMatch(
      /^EVAL_KERNEL_START: the python kernel \(.*no-such-runner\) did not start in the sandbox broken: /,
    );
  });

  it('EVAL-10: evalToolPackWith passes the lookup to the session resource with the session id', async () => {
    const pack = evalToolPackWith({ sandbox: (c) => boxes.current(c) });
    expect(pack.name).toBe('@a3s-code/tools-resource/eval');
    const opened = (await pack.resources![0]!.open({
      sessionId: 'conv-9',
      clock: Date.now,
      settings: {},
      signal: new AbortController().signal,
      runOwner: (runId) => (runId === 'run-1' ? { kind: 'session' } : undefined),
    })) as EvalResource;
    try {
      boxes.start(netless);
      const r = await opened.run('python', INTERFACES, dir, {
        bridge: async () => ({ ok: true, output: '' }),
        runId: 'run-1',
      });
      expect([r.runsIn, r.echo]).toEqual(['sandbox netns-test', "['lo']"]);
      expect(boxes.lookups.at(-1)).toEqual({ sessionId: 'conv-9', cwd: dir });
    } finally {
      await opened.close();
    }
  });
});
