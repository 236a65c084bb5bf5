// The floor under a `ctx.tool` call from the VM's side: a program run on the host thread itself
// (no worker, no thread hop) whose host answers every call at once, with no governance and a
// constant result. What is left is QuickJS's own promise plumbing for one call (the host function,
// a VM promise, its settlement, the job queue, the result's JSON parsed in the VM). Measured in the
// same run as `ctx.tool`, it shows what even a program kept on the host thread would pay per call.
// It loads the VM module from the sources (it is not public), so it runs under tsx.
import { performance } from 'node:perf_hooks';
import { runProgramScript } from '../packages/core/src/program/program-vm.js';

const ANSWER = JSON.stringify({
  name: 'noop',
  ok: true,
  output: '',
  exit_code: 0,
  error_kind: null,
  error_code: null,
  metadata: {},
});

const host = {
  call: async (_op: string, payload: string): Promise<string> => {
    JSON.parse(payload);
    return ANSWER;
  },
  log: (): void => undefined,
  violation: () => undefined,
  toolCalls: (): number => 0,
};

async function runOnHostThread(calls: number): Promise<number> {
  const t0 = performance.now();
  await runProgramScript({
    source: `async function run(ctx) { for (let i = 0; i < ${calls}; i++) await ctx.tool("noop", {}); return "done"; }`,
    file: 'floor.js',
    module: false,
    inputsJson: '{}',
    timeoutMs: 60_000,
    memoryLimitBytes: 64 * 1024 * 1024,
    maxStackBytes: 1024 * 1024,
    maxResultChars: 1000,
    signal: new AbortController().signal,
    host,
  });
  return performance.now() - t0;
}

/** Milliseconds per `ctx.tool` call of a program run on the host thread against an instant host. */
export async function vmCallFloorMs(calls: number): Promise<number> {
  const withCalls = await runOnHostThread(calls);
  const none = await runOnHostThread(0);
  return (withCalls - none) / calls;
}
